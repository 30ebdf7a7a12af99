#!/usr/bin/env bash
# API conformance: fuzzes a live server from its own OpenAPI document with
# schemathesis and fails on any 5xx or any response (status, content type,
# body, headers) that the document does not describe.
#
#   bash scripts/conformance.sh            # after `cargo build` (debug binaries)
#   bash scripts/conformance.sh --install  # only the pinned Python tools
#   SERVER_BIN=target/release/server INDEXER_BIN=target/release/indexer bash scripts/conformance.sh
#
# Environment (all optional):
#   SERVER_BIN, INDEXER_BIN      binaries to use (default target/debug/*); this
#                                script never runs cargo, the caller builds
#   CONFORMANCE_MAX_EXAMPLES     random test cases per operation in the fuzzing
#                                phase (default 100); the coverage phase adds its
#                                own boundary and invalid-value cases
#   CONFORMANCE_SEED             hypothesis seed (default 7)
#   CONFORMANCE_WORKERS          concurrent schemathesis workers (default 1: with
#                                more, its worker threads can call `ast.parse` at
#                                once, which CPython 3.11 (Debian 12's) may abort
#                                with "SystemError: AST constructor recursion depth
#                                mismatch", cpython gh-106905: a crash of the tool,
#                                not a finding about the API)
#   CONFORMANCE_TIMEOUT          hard limit on the schemathesis run, s (default 600)
#   CONFORMANCE_PHASES           default examples,coverage,fuzzing (no stateful)
#   CONFORMANCE_CHECKS           schemathesis checks (default: all of them)
#   CONFORMANCE_EXCLUDE_CHECKS   checks skipped (default positive_data_acceptance,
#                                see step 6)
#   CONFORMANCE_SCHEMA           load the schema from this file instead of
#                                http://HOST/openapi.json (for trying the script
#                                on a hand-written document)
#   PYTHON                       interpreter for the venv (default python3)
#
# Everything lands in target/conformance/: venv/, dump/, index/, state/,
# server.log (with an access-log line per request), openapi.json,
# schemathesis.log (its full output: every failure with a curl to replay it),
# report/junit.xml (one test case per operation) and report/run.json.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"

SCHEMATHESIS_VERSION=4.32.5
VALIDATOR_VERSION=0.9.0

server_bin="$(realpath -m "${SERVER_BIN:-target/debug/server}")"
indexer_bin="$(realpath -m "${INDEXER_BIN:-target/debug/indexer}")"
max_examples="${CONFORMANCE_MAX_EXAMPLES:-100}"
seed="${CONFORMANCE_SEED:-7}"
workers="${CONFORMANCE_WORKERS:-1}"
st_timeout="${CONFORMANCE_TIMEOUT:-600}"
phases="${CONFORMANCE_PHASES:-examples,coverage,fuzzing}"
schema_file="${CONFORMANCE_SCHEMA:-}"
if [ -n "$schema_file" ]; then
  [ -f "$schema_file" ] || { echo "conformance: $schema_file not found" >&2; exit 1; }
  schema_file="$(realpath "$schema_file")"
fi
work="$repo/target/conformance"
venv="$work/venv"

say() { echo "conformance: $*" >&2; }
die() { say "$*"; exit 1; }

# `--install`: only set up the pinned tools (CI does this first, so that a
# registry failure shows as such).
install_only=false
[ "${1:-}" = --install ] && install_only=true
$install_only || for bin in "$server_bin" "$indexer_bin"; do
  [ -x "$bin" ] || die "$bin is missing: build it first (cargo build --bins)"
done
command -v curl >/dev/null || die "curl is needed"
mkdir -p "$work"

# --- 1. venv with the pinned tools (reused when the pins are installed) ------
pins_ok() {
  "$venv/bin/python" - "$SCHEMATHESIS_VERSION" "$VALIDATOR_VERSION" 2>/dev/null <<'PY'
import sys
from importlib.metadata import version
sys.exit(0 if (version("schemathesis"), version("openapi-spec-validator")) == tuple(sys.argv[1:3]) else 1)
PY
}
if ! pins_ok; then
  say "installing schemathesis==$SCHEMATHESIS_VERSION openapi-spec-validator==$VALIDATOR_VERSION into $venv"
  "$venv/bin/python" -c '' 2>/dev/null || "${PYTHON:-python3}" -m venv --clear "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "schemathesis==$SCHEMATHESIS_VERSION" "openapi-spec-validator==$VALIDATOR_VERSION"
  pins_ok || die "the venv does not have the pinned versions after pip install"
fi
if $install_only; then
  say "schemathesis $SCHEMATHESIS_VERSION and openapi-spec-validator $VALIDATOR_VERSION ready in $venv"
  exit 0
fi

# --- 2. data: model files, a small synthetic dump and its index --------------
# The whole build takes well under a second at this size, so it is redone
# every run (same seed, same bytes) rather than cached.
bash scripts/fetch-models.sh "$repo/models" >&2
rm -rf "$work/dump" "$work/index" "$work/.embed-cache"
"$indexer_bin" generate --companies 300 --seed 7 --out "$work/dump" >&2
"$indexer_bin" build --quiet --dump "$work/dump" --out "$work/index" --as-of 2026-11-01 \
  --semantic-model wordllama --models "$repo/models" --embed-cache none >&2

# --- 3. state: one unmetered key ---------------------------------------------
# The `api` plan has no monthly allowance and no semantic-search ceiling; the
# purchased credits are there as well in case a request path still counts them.
rm -rf "$work/state"
key="$("$server_bin" keys create --state "$work/state" --user fuzzer --plan api | tail -n1)"
[[ "$key" == vg_* ]] || die "keys create printed no key: $key"
"$server_bin" keys add-credits --state "$work/state" --user fuzzer --credits 1000000000 >&2

# --- 4. server on a free port, killed on exit --------------------------------
port="$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
server_pid="" st_pid="" tail_pid=""
stop() {  # TERM, then KILL after 5 s, then reap
  [ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 0
  kill "$1" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() { stop "$st_pid"; stop "$tail_pid"; stop "$server_pid"; }
# The long steps run in the background and are waited for, so that a signal
# to this script cleans up at once (bash defers traps while a foreground
# command runs).
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$server_bin" --index "$work/index" --listen "127.0.0.1:$port" --state "$work/state" \
  --rate-limit 0 --semantic-model wordllama --models "$repo/models" \
  >"$work/server.log" 2>&1 &
server_pid=$!
deadline=$((SECONDS + 60))
until [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/health")" = 200 ]; do
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; die "the server exited"; }
  [ $SECONDS -lt $deadline ] || { cat "$work/server.log" >&2; die "no 200 from $base/health in 60 s"; }
  sleep 0.2
done
say "server ready on $base (pid $server_pid)"

# --- 5. the schema: fetched (no key needed) and validated as OpenAPI 3.1 -----
if [ -n "$schema_file" ]; then
  say "schema from $schema_file (CONFORMANCE_SCHEMA)"
  cp "$schema_file" "$work/openapi.json"
  location="$schema_file"
else
  # served without a key, at the root and under /v1 (the same document)
  curl -fsS "$base/openapi.json" -o "$work/openapi.json" || die "GET $base/openapi.json failed"
  curl -fsS "$base/v1/openapi.json" -o "$work/openapi-v1.json" || die "GET $base/v1/openapi.json failed"
  cmp -s "$work/openapi.json" "$work/openapi-v1.json" || die "/openapi.json and /v1/openapi.json differ"
  location="$base/openapi.json"
fi
"$venv/bin/openapi-spec-validator" --schema 3.1 "$work/openapi.json" >&2 \
  || die "openapi.json is not a valid OpenAPI 3.1 document"

# --- 6. the fuzzer -------------------------------------------------------------
# Phases: `examples` (the document's own examples), `coverage` (boundary and
# deliberately invalid values of every parameter and body field, so bad
# input must get a documented 4xx, never a 5xx) and `fuzzing` (random
# positive and negative cases, --mode all). `stateful` is off by default: it
# follows links between operations and the API has none to follow yet.
# A fixed --seed and no example database: the same cases every run (no
# replay of earlier failures, nothing written); --no-shrink bounds the time.
rm -rf "$work/report"
# Every check but one: positive_data_acceptance (a schema-valid request must
# succeed) cannot hold for rules OpenAPI 3.1 has no words for: "exactly one
# of id, domain, linkedin, crunchbase", "type or location_type, not both",
# "size_min <= size_max". Those requests get their documented 400s; the
# document says so in each operation's description.
checks="${CONFORMANCE_CHECKS:-all}"
exclude="${CONFORMANCE_EXCLUDE_CHECKS-positive_data_acceptance}"
# Output goes to schemathesis.log and is followed live on stdout; `timeout`
# passes a TERM from cleanup on to schemathesis.
( cd "$work" && exec timeout --kill-after=10 "$st_timeout" \
  "$venv/bin/schemathesis" run "$location" \
    --url "$base" \
    --header "Authorization: Bearer $key" \
    --checks "$checks" \
    ${exclude:+--exclude-checks "$exclude"} \
    --phases "$phases" \
    --mode all \
    --max-examples "$max_examples" \
    --seed "$seed" \
    --generation-database none \
    --no-shrink \
    --workers "$workers" \
    --request-timeout 30 \
    --continue-on-failure \
    --report junit,json \
    --report-junit-path "$work/report/junit.xml" \
    --report-json-path "$work/report/run.json" \
    --no-color ) >"$work/schemathesis.log" 2>&1 &
st_pid=$!
tail -n +1 -f --pid="$st_pid" "$work/schemathesis.log" &
tail_pid=$!
st_status=0
wait "$st_pid" || st_status=$?
st_pid=""
wait "$tail_pid" || true
tail_pid=""
# `timeout` exits 124 (or 137 after SIGKILL) when the budget runs out
if [ "$st_status" -eq 124 ] || [ "$st_status" -eq 137 ]; then
  say "schemathesis ran out of its ${st_timeout} s budget"
fi
# a server that crashed under the fuzzer fails the run whatever was reported
if ! kill -0 "$server_pid" 2>/dev/null; then
  tail -n 20 "$work/server.log" >&2
  say "the server died during the run"
  [ "$st_status" -ne 0 ] || st_status=1
fi

# --- 7. summary (from schemathesis's JSON run report) --------------------------
"$venv/bin/python" - "$work/report/run.json" "$st_status" <<'PY'
import json, sys

path, status = sys.argv[1], int(sys.argv[2])
try:
    with open(path) as f:
        run = json.load(f)
except (OSError, ValueError):
    run = {}
ops = (run.get("operations") or {}).get("tested", 0)
cases = run.get("test_cases") or {}
errors = sum(e.get("count", 0) for e in run.get("errors") or [])
for group in run.get("failures") or []:
    print(f"conformance:   {group['count']} x {group['code']} {group['title']}: {', '.join(group['operations'])}")
verdict = "passed" if status == 0 else f"FAILED (schemathesis exit {status})"
print(f"conformance: {ops} operations tested, {cases.get('generated', 0)} test cases generated, "
      f"{cases.get('unique_failures', 0)} unique failures, {errors} errors: {verdict}")
PY
[ "$st_status" -eq 0 ] || say "details: $work/schemathesis.log, $work/report/, server log $work/server.log"
exit "$st_status"
