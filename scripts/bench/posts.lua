-- wrk script for scripts/bench/http_load.sh MIX=c1: replays POST bodies in
-- a fixed order (one JSON body per line of the file named after `--`) to
-- the path given second (default /v1/companies), authenticated with the key
-- in FUNDSEARCH_BENCH_KEY, and prints one machine-readable RESULT line
-- (latencies in ms) when the run ends.
--
--   FUNDSEARCH_BENCH_KEY=vg_... wrk -t1 -c32 -d30s -s posts.lua http://127.0.0.1:18080 -- bodies.txt /v1/companies

local bodies = {}
local counter = 0
local path = "/v1/companies"

function init(args)
  local file = args[1] or error("usage: wrk ... -s posts.lua URL -- BODIES_FILE [PATH]")
  path = args[2] or path
  for line in io.lines(file) do
    if #line > 0 then
      bodies[#bodies + 1] = line
    end
  end
  if #bodies == 0 then
    error("no bodies in " .. file)
  end
  local key = os.getenv("FUNDSEARCH_BENCH_KEY") or error("FUNDSEARCH_BENCH_KEY is not set")
  wrk.headers["Authorization"] = "Bearer " .. key
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter % #bodies + 1
  return wrk.format("POST", path, nil, bodies[counter])
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d seconds=%.2f rps=%.0f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f non2xx=%d socket_errors=%d\n",
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
