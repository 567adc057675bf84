-- wrk script for scripts/service_benchmark.py (one wrk thread: one seed, one request list).
--
--   wrk -t1 -c64 -d20s --latency -s service_wrk.lua URL -- MODE SEED COUNT
--
-- MODE: "nearest" (GET /v1/stores/nearest?near=LAT,LON&k=10), "nearest_fields" (the same with
-- &fields=id,distance_m, the trimmed answer of issue 35), "pickup" (POST /v1/pickup with a
-- pickup request {"near": "LAT,LON", "ready_in": "12m"}) or "constant" (GET the URL's own path,
-- for the framework ceiling). The query points are uniform on the sphere: latitude
-- degrees(asin(2u - 1)), longitude 360v - 180, u and v from LuaJIT's math.random seeded with SEED
-- (the same list on every run). COUNT requests (default 10,000) are formatted once in init() and
-- sent in turn, so the client spends no time per request on formatting.
--
-- done() prints one line "WRK_JSON {...}" that the Python script reads: request and error counts
-- (status_errors: responses with a status of 400 or more, wrk's own count), the mean and maximum
-- latency, and the percentiles, in microseconds. In "pickup" mode a response() callback also
-- counts the statuses, 2xx and any other, and among the 2xx the answers with status "none" (no store
-- near enough can take the order: a full planner run whose answer assigns no store); the other modes define no callback, so wrk does not hand them the
-- headers and body (which costs the client time).

local mode, seed, count = "nearest", 4242, 10000
local requests = {}
local n, i = 0, 0
local threads = {}
-- Per-thread counts (globals, so done() can read them with thread:get).
count_2xx, count_none, count_other, first_other = 0, 0, 0, 0

function setup(thread)
  table.insert(threads, thread)
end

local function count_status(status, body)
  if status >= 200 and status < 300 then
    count_2xx = count_2xx + 1
    if body and body:find('"status":"none"', 1, true) then count_none = count_none + 1 end
  else
    count_other = count_other + 1
    if first_other == 0 then first_other = status end
  end
end

function init(args)
  mode = args[1] or mode
  seed = tonumber(args[2] or seed)
  count = tonumber(args[3] or count)
  math.randomseed(seed)
  for j = 1, count do
    local lat = math.deg(math.asin(2 * math.random() - 1))
    local lon = 360 * math.random() - 180
    local near = string.format("%.6f,%.6f", lat, lon)
    if mode == "nearest" then
      requests[j] = wrk.format("GET", "/v1/stores/nearest?near=" .. near .. "&k=10")
    elseif mode == "nearest_fields" then
      requests[j] = wrk.format("GET", "/v1/stores/nearest?near=" .. near .. "&k=10&fields=id,distance_m")
    elseif mode == "pickup" then
      requests[j] = wrk.format("POST", "/v1/pickup", { ["Content-Type"] = "application/json" },
        '{"near": "' .. near .. '", "ready_in": "12m"}')
    elseif mode == "constant" then
      requests[j] = wrk.format("GET", wrk.path)
    else
      error("unknown mode " .. tostring(mode))
    end
  end
  n = count
  if mode == "pickup" then
    response = function(status, _, body) count_status(status, body) end
  end
end

function request()
  i = i % n + 1
  return requests[i]
end

function done(summary, latency, _)
  local c2, cnone, cother, first = 0, 0, 0, 0
  for _, thread in ipairs(threads) do
    c2 = c2 + thread:get("count_2xx")
    cnone = cnone + thread:get("count_none")
    cother = cother + thread:get("count_other")
    if first == 0 then first = thread:get("first_other") end
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"connect_errors": %d, "read_errors": %d, "write_errors": %d, "status_errors": %d, ' ..
    '"timeouts": %d, "latency_mean_us": %.1f, "latency_max_us": %d, ' ..
    '"p50_us": %d, "p90_us": %d, "p99_us": %d, "p999_us": %d, ' ..
    '"counted": %s, "count_2xx": %d, "count_none": %d, "count_other": %d, "first_other": %d}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout, latency.mean, latency.max,
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9), (c2 + cother > 0) and "true" or "false", c2, cnone, cother, first))
end
