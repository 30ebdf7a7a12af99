-- wrk script for scripts/bench/http_load.sh: replays lookup paths in a
-- fixed order (one `path?query` per line of the file named after `--`),
-- authenticated with the key in FUNDSEARCH_BENCH_KEY, and prints one
-- machine-readable RESULT line (latencies in ms) when the run ends.
--
--   FUNDSEARCH_BENCH_KEY=vg_... wrk -t1 -c32 -d30s -s lookups.lua http://127.0.0.1:18080 -- paths.txt

local paths = {}
local counter = 0

function init(args)
  local file = args[1] or error("usage: wrk ... -s lookups.lua URL -- PATHS_FILE")
  for line in io.lines(file) do
    if #line > 0 then
      paths[#paths + 1] = line
    end
  end
  if #paths == 0 then
    error("no paths in " .. file)
  end
  local key = os.getenv("FUNDSEARCH_BENCH_KEY") or error("FUNDSEARCH_BENCH_KEY is not set")
  wrk.headers["Authorization"] = "Bearer " .. key
end

function request()
  counter = counter % #paths + 1
  return wrk.format("GET", paths[counter])
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
