-- wrk script for scripts/capacity_cost.py: POST /v1/pickup with "reserve": true (one wrk thread:
-- one seed, one request list).
--
--   wrk -t1 -c64 -d15s --latency -s reserve_wrk.lua URL -- TOKEN POINTS SEED COUNT READY_IN HOLD_FOR
--
-- Each request is {"near": "LAT,LON", "ready_in": READY_IN, "reserve": true, "hold_for": HOLD_FOR}
-- with "Authorization: Bearer TOKEN" (one of the server's STORES_ORDER_TOKENS). POINTS is
-- "sphere" (points uniform on the sphere, as service_wrk.lua makes them: latitude
-- degrees(asin(2u - 1)), longitude 360v - 180, u and v from LuaJIT's math.random seeded with SEED)
-- or the path of a file with one "LAT,LON" a line (capacity_cost.py writes the positions of
-- stores that a plain pickup assigns, so that nearly every request holds a slot); from a file,
-- COUNT requests are drawn from its lines with the same seeded generator. The COUNT requests
-- (default 10,000) are formatted once in init() and sent in turn, so the client spends no time per
-- request on formatting.
--
-- A response() callback counts the answers by status (201: a slot held; 200: no store could take
-- the order, "reservation": null; 409: slots-full; anything else), and done() prints one line
-- "WRK_JSON {...}" that the Python script reads: request and error counts, the mean and maximum
-- latency, the percentiles in microseconds, and "statuses": {"201": n, ...}.

local token, points, seed, count = "", "sphere", 4343, 10000
local ready_in, hold_for = "10m", "30m"
local requests = {}
local n, i = 0, 0
local threads = {}
-- Per-thread counts (a global, so done() can read it with thread:get).
statuses = {}

function setup(thread)
  table.insert(threads, thread)
end

local function sphere_point()
  local lat = math.deg(math.asin(2 * math.random() - 1))
  local lon = 360 * math.random() - 180
  return string.format("%.6f,%.6f", lat, lon)
end

function init(args)
  token = args[1] or error("reserve_wrk.lua: give the order token as the first argument")
  points = args[2] or points
  seed = tonumber(args[3] or seed)
  count = tonumber(args[4] or count)
  ready_in = args[5] or ready_in
  hold_for = args[6] or hold_for
  math.randomseed(seed)
  local lines = nil
  if points ~= "sphere" then
    lines = {}
    local file = assert(io.open(points, "r"))
    for line in file:lines() do
      if line:match("^%-?[%d.]+,%-?[%d.]+$") then table.insert(lines, line) end
    end
    file:close()
    if #lines == 0 then error("reserve_wrk.lua: no LAT,LON line in " .. points) end
  end
  local headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }
  for j = 1, count do
    local near
    if lines then near = lines[math.random(#lines)] else near = sphere_point() end
    requests[j] = wrk.format("POST", "/v1/pickup", headers,
      '{"near": "' .. near .. '", "ready_in": "' .. ready_in .. '", "reserve": true, "hold_for": "'
        .. hold_for .. '"}')
  end
  n = count
end

function request()
  i = i % n + 1
  return requests[i]
end

function response(status, _, _)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, _)
  local total = {}
  for _, thread in ipairs(threads) do
    local counted = thread:get("statuses") or {}
    for status, number in pairs(counted) do
      total[status] = (total[status] or 0) + number
    end
  end
  local parts = {}
  for status, number in pairs(total) do
    table.insert(parts, string.format('"%d": %d', status, number))
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"connect_errors": %d, "read_errors": %d, "write_errors": %d, "status_errors": %d, ' ..
    '"timeouts": %d, "latency_mean_us": %.1f, "latency_max_us": %d, ' ..
    '"p50_us": %d, "p90_us": %d, "p99_us": %d, "p999_us": %d, "statuses": {%s}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout, latency.mean, latency.max,
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9), table.concat(parts, ", ")))
end
