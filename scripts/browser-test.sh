#!/usr/bin/env bash
# The pages in a real browser: starts the real server on a small synthetic
# index and drives headless Chromium (Debian's `chromium`, through Python
# Playwright) over the explorer (/) and the reference (/docs); see
# scripts/browser_test.py for what is checked.
#
#   bash scripts/browser-test.sh            # after `cargo build` (debug binaries)
#   bash scripts/browser-test.sh --install  # only install Chromium and the pinned Playwright
#
# Environment (all optional):
#   SERVER_BIN, INDEXER_BIN   binaries to use (default target/debug/*); this
#                             script never runs cargo, the caller builds
#   CHROMIUM                  the browser (default /usr/bin/chromium, installed
#                             with apt-get when missing and running as root)
#   BROWSER_TEST_TIMEOUT      hard limit on the browser run, s (default 300)
#   PYTHON                    interpreter for the venv (default python3)
#
# Playwright never downloads a browser here: it is told the system
# Chromium's path, and `playwright install` is never run. Everything lands in
# target/browser/: venv/, dump/, index/, state/, server.log.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"

PLAYWRIGHT_VERSION=1.65.2

server_bin="$(realpath -m "${SERVER_BIN:-target/debug/server}")"
indexer_bin="$(realpath -m "${INDEXER_BIN:-target/debug/indexer}")"
chromium="${CHROMIUM:-/usr/bin/chromium}"
run_timeout="${BROWSER_TEST_TIMEOUT:-300}"
work="$repo/target/browser"
venv="$work/venv"

say() { echo "browser: $*" >&2; }
die() { say "$*"; exit 1; }

install_only=false
[ "${1:-}" = --install ] && install_only=true
$install_only || for bin in "$server_bin" "$indexer_bin"; do
  [ -x "$bin" ] || die "$bin is missing: build it first (cargo build --bins)"
done
command -v curl >/dev/null || die "curl is needed"
mkdir -p "$work"

# --- 1. Chromium from the distribution, Playwright pinned in a venv ----------
if [ ! -x "$chromium" ]; then
  [ "$(id -u)" = 0 ] || die "$chromium is missing: install Debian's chromium (apt-get install chromium)"
  say "installing chromium with apt-get"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >&2
  [ -x "$chromium" ] || die "apt-get did not install $chromium"
fi
pins_ok() {
  "$venv/bin/python" - "$PLAYWRIGHT_VERSION" 2>/dev/null <<'PY'
import sys
from importlib.metadata import version
sys.exit(0 if version("playwright") == sys.argv[1] else 1)
PY
}
if ! pins_ok; then
  say "installing playwright==$PLAYWRIGHT_VERSION into $venv (no browser download)"
  "$venv/bin/python" -c '' 2>/dev/null || "${PYTHON:-python3}" -m venv --clear "$venv"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "playwright==$PLAYWRIGHT_VERSION"
  pins_ok || die "the venv does not have playwright $PLAYWRIGHT_VERSION after pip install"
fi
if $install_only; then
  say "$("$chromium" --version 2>/dev/null || echo chromium) and playwright $PLAYWRIGHT_VERSION ready"
  exit 0
fi

# --- 2. data: a small synthetic dump and its index (no semantic vectors) -----
rm -rf "$work/dump" "$work/index" "$work/state"
"$indexer_bin" generate --companies 1000 --seed 7 --out "$work/dump" >&2
"$indexer_bin" build --quiet --dump "$work/dump" --out "$work/index" --as-of 2026-11-01 \
  --semantic-model none --embed-cache none >&2

# --- 3. state: the demo key, on a metered plan so that credits show ------------
key="$("$server_bin" keys create --state "$work/state" --user demo --plan pro | tail -n1)"
[[ "$key" == vg_* ]] || die "keys create printed no key: $key"

# --- 4. server on a free port, stopped on exit --------------------------------
port="$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
server_pid="" test_pid=""
stop() {  # TERM, then KILL after 5 s, then reap
  [ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 0
  kill "$1" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() { stop "$test_pid"; stop "$server_pid"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$server_bin" --index "$work/index" --listen "127.0.0.1:$port" --state "$work/state" \
  --rate-limit 0 >"$work/server.log" 2>&1 &
server_pid=$!
deadline=$((SECONDS + 60))
until [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/health")" = 200 ]; do
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; die "the server exited"; }
  [ $SECONDS -lt $deadline ] || { cat "$work/server.log" >&2; die "no 200 from $base/health in 60 s"; }
  sleep 0.2
done
say "server ready on $base (pid $server_pid)"

# --- 5. the browser test ---------------------------------------------------------
started=$SECONDS
timeout --kill-after=10 "$run_timeout" \
  "$venv/bin/python" scripts/browser_test.py "$base" "$key" "$chromium" &
test_pid=$!
status=0
wait "$test_pid" || status=$?
test_pid=""
if ! kill -0 "$server_pid" 2>/dev/null; then
  tail -n 20 "$work/server.log" >&2
  say "the server died during the run"
  [ "$status" -ne 0 ] || status=1
fi
if [ "$status" -eq 0 ]; then
  say "passed ($((SECONDS - started)) s in the browser)"
else
  say "FAILED (exit $status); server log: $work/server.log"
fi
exit "$status"
