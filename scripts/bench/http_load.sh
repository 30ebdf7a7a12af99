#!/usr/bin/env bash
# HTTP load test of the lookup endpoints, or of the C1 discovery mix, with
# wrk (Server issue §4; issue 17 §4).
#
# 1. writes N lookup paths drawn from the index (company / investor / person
#    name searches -- exact, one typo, prefix -- company domains, a few
#    location and industry searches; see benches/support/requests.rs) with
#    `cargo bench --bench lookup_latency -- --write-paths`; or, with MIX=c1,
#    N `POST /v1/companies` bodies of the C1 class of the in-process bench
#    (benches/support/searches.rs, each checked to parse back into its typed
#    request) with `cargo bench --bench search_latency -- --write-bodies`,
#    replayed by posts.lua;
# 2. creates an api-plan key (unmetered) in a fresh state directory;
# 3. "1 core": the server pinned to core 0 (`taskset -c 0`, --threads 1),
#    wrk pinned to core 1 (-t1); for each connection count: WARMUP seconds
#    of warm-up (discarded), then DURATION seconds measured;
# 4. "2 cores": the same with the server on both cores (--threads 2), wrk
#    still on core 1, i.e. sharing a core with the server (labelled so);
# 5. prints req/s and latency percentiles per run, stops the server.
#
# usage: scripts/bench/http_load.sh [INDEX_DIR]
#   INDEX_DIR defaults to $FUNDSEARCH_BENCH_INDEX, else the S index the
#   benches build in target/bench-data/.
# env: CONNS ("8 32 128"), WARMUP (10), DURATION (30), PORT (18080),
#      SETTLE (5: idle seconds after the server is ready, while it derives
#      its in-memory structures on its background thread -- 2.5 s at M
#      when idle, several times that when it shares its core with load;
#      requests made before then count slower ways),
#      PATHS (20000), WORKERS_1 / WORKERS_2 (server --workers for the 1-core /
#      2-core runs; default: the server's own default), MODES ("1 2"),
#      MIX ("lookups"; "domain" = domain lookups only, the HTTP stack's ceiling;
#      "c1" = POST /v1/companies bodies of the C1 mix).
# Installs wrk from apt when missing. Closed-loop saturation: p99 here is
# queueing under overload, not the latency at a sustainable rate. Each
# one-core run is printed against its mix's throughput target: C1 3,000
# req/s (issue 17 §4), the name-lookup mix 15,000 (Server issue §4).
set -euo pipefail
cd "$(dirname "$0")/../.."

conns=${CONNS:-"8 32 128"}
warmup=${WARMUP:-10}
duration=${DURATION:-30}
settle=${SETTLE:-5}
port=${PORT:-18080}
npaths=${PATHS:-20000}
modes=${MODES:-"1 2"}
mix=${MIX:-lookups}
case "$mix" in
  c1) target=3000 ;;
  lookups) target=15000 ;;
  *) target= ;;
esac
work=$(mktemp -d /tmp/bench-http.XXXXXX)
server_pid=

cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

if ! command -v wrk >/dev/null; then
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wrk
fi

# --- index, binaries, paths, key ----------------------------------------------
if [ -n "${1:-}" ]; then
  export FUNDSEARCH_BENCH_INDEX=$1
fi
cargo build --release --bin server
if [ "$mix" = c1 ]; then
  cargo bench --bench search_latency -- --write-bodies "$work/paths.txt" --queries "$npaths"
  lua=scripts/bench/posts.lua
else
  cargo bench --bench lookup_latency -- --write-paths "$work/paths.txt" --paths "$npaths" --mix "$mix"
  lua=scripts/bench/lookups.lua
fi
index=${FUNDSEARCH_BENCH_INDEX:-target/bench-data/s-7-index}
server=target/release/server
FUNDSEARCH_BENCH_KEY=$("$server" keys create --state "$work/state" --user bench --plan api)
export FUNDSEARCH_BENCH_KEY

start_server() { # $1 = cores (1 or 2)
  local args=(--index "$index" --listen "127.0.0.1:$port" --state "$work/state" --rate-limit 0 --access-log false)
  local workers_var="WORKERS_$1"
  [ -n "${!workers_var:-}" ] && args+=(--workers "${!workers_var}")
  if [ "$1" = 1 ]; then
    taskset -c 0 "$server" "${args[@]}" --threads 1 2>"$work/server.log" &
  else
    "$server" "${args[@]}" --threads 2 2>"$work/server.log" &
  fi
  server_pid=$!
  for _ in $(seq 1 600); do
    if curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
      return 0
    fi
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log"; return 1; }
    sleep 0.1
  done
  echo "server did not become ready" >&2
  return 1
}

stop_server() {
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}

run_wrk() { # $1 = connections, $2 = seconds; prints the RESULT line
  taskset -c 1 wrk -t1 -c"$1" -d"$2"s --timeout 10s -s "$lua" \
    "http://127.0.0.1:$port" -- "$work/paths.txt" | grep '^RESULT'
}

# sanity check: the first 50 requests answer 200
check() {
  local n=0 code
  while read -r line; do
    if [ "$mix" = c1 ]; then
      code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $FUNDSEARCH_BENCH_KEY" \
        -H 'Content-Type: application/json' --data-binary "$line" "http://127.0.0.1:$port/v1/companies")
    else
      code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $FUNDSEARCH_BENCH_KEY" "http://127.0.0.1:$port$line")
    fi
    [ "$code" = 200 ] || { echo "$line -> $code" >&2; return 1; }
    n=$((n + 1))
  done < <(head -n 50 "$work/paths.txt")
  echo "sanity: $n requests answered 200"
}

results=()
echo "index: $index ($(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["counts"]; print(c["companies"], "companies")' "$index/manifest.json"))"
echo "paths: $(wc -l < "$work/paths.txt") requests of the '$mix' mix; warm-up ${warmup}s + measured ${duration}s per point; wrk -t1 on core 1"
for mode in $modes; do
  if [ "$mode" = 1 ]; then label="server on core 0 (--threads 1)"; else label="server on both cores (--threads 2; shares core 1 with wrk)"; fi
  start_server "$mode"
  sleep "$settle"
  check
  for c in $conns; do
    run_wrk "$c" "$warmup" >/dev/null
    line=$(run_wrk "$c" "$duration")
    echo "$label, $c connections: $line"
    results+=("$label|$c|$line")
  done
  stop_server
done

echo
printf '%-58s %5s %9s %8s %8s %8s %8s %7s %6s\n' setup conns req/s p50_ms p90_ms p99_ms max_ms non2xx sockerr
for r in "${results[@]}"; do
  IFS='|' read -r label c line <<<"$r"
  field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $line"; }
  printf '%-58s %5s %9s %8s %8s %8s %8s %7s %6s\n' "$label" "$c" "$(field rps)" "$(field p50_ms)" \
    "$(field p90_ms)" "$(field p99_ms)" "$(field max_ms)" "$(field non2xx)" "$(field socket_errors)"
done
if [ -n "$target" ]; then
  echo
  for r in "${results[@]}"; do
    IFS='|' read -r label c line <<<"$r"
    case "$label" in *"core 0"*) ;; *) continue ;; esac
    rps=$(sed -n 's/.* rps=\([^ ]*\).*/\1/p' <<<" $line")
    verdict=$([ "${rps:-0}" -ge "$target" ] && echo holds || echo MISSED)
    echo "target, one core, $c connections: $rps req/s >= $target req/s $verdict"
  done
fi
