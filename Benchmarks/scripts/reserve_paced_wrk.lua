-- reserve_wrk.lua with a pause before each request on a connection, for capacity_cost.py's
-- --reserve-pace: latency at an offered rate near a target rather than at the most the server
-- takes (where every connection queues behind the others and p99 measures the queue).
--
--   wrk -t1 -c16 -d15s --latency -s reserve_paced_wrk.lua URL -- TOKEN POINTS SEED COUNT READY_IN HOLD_FOR PACE_MS
--
-- Each connection sends a request PACE_MS after the answer to its previous one, so C connections
-- offer at most C / (PACE_MS + latency) requests a second; the script reports the rate reached.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
dofile(here .. "reserve_wrk.lua")

local pace = 0
local unpaced_init = init

function init(args)
  unpaced_init(args)
  pace = tonumber(args[7] or error("reserve_paced_wrk.lua: give PACE_MS as the seventh argument"))
end

function delay()
  return pace
end
