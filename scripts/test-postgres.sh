#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests of the database account store
# (src/accounts/pg): a private cluster on 127.0.0.1, trust authentication,
# fsync on (durability is what those tests are about) and small buffers.
#
#   bash scripts/test-postgres.sh --install  # only install PostgreSQL (apt-get) if missing
#   bash scripts/test-postgres.sh            # start the cluster if needed (installing
#                                            # PostgreSQL first when missing); print its URL
#   bash scripts/test-postgres.sh --stop     # stop the cluster (its files stay)
#
# Starting prints exactly one line on stdout, the URL of the maintenance
# database, e.g. postgres://postgres@127.0.0.1:55432/postgres; everything
# else goes to stderr. It is idempotent and safe to run from parallel
# processes (they serialise on a flock): if a server already answers on the
# port, it only prints the URL. The tests run it once per process
# (src/accounts/pg/testdb.rs) and create one database per test.
#
# Environment (all optional):
#   FUNDSEARCH_TEST_PG_DIR    the cluster's data directory (default /tmp/fundsearch-test-pg)
#   FUNDSEARCH_TEST_PG_PORT   its port (default 55432)
#
# initdb refuses to run as root: as root, the cluster belongs to the
# `postgres` system user (created if missing) and the server runs as it.
# Never for production: anyone on this machine can connect as superuser.
set -euo pipefail

dir="${FUNDSEARCH_TEST_PG_DIR:-/tmp/fundsearch-test-pg}"
port="${FUNDSEARCH_TEST_PG_PORT:-55432}"
url="postgres://postgres@127.0.0.1:$port/postgres"

say() { echo "test-postgres: $*" >&2; }
die() { say "$*"; exit 1; }

bindir() {
  local initdb
  initdb="$( (ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null || true) | sort -V | tail -n 1)"
  [ -n "$initdb" ] && dirname "$initdb"
}

install() {
  [ -n "$(bindir)" ] && return 0
  [ "$(id -u)" = 0 ] || die "PostgreSQL is missing: install Debian's postgresql (apt-get install postgresql)"
  say "installing postgresql with apt-get"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >&2
  [ -n "$(bindir)" ] || die "apt-get did not install /usr/lib/postgresql/*/bin/initdb"
}

# Runs a PostgreSQL program as the cluster's owner.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

prepare_owner() {
  [ "$(id -u)" = 0 ] || { mkdir -p "$dir"; return; }
  if ! id postgres >/dev/null 2>&1; then
    say "creating the postgres system user"
    useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/sh postgres
  fi
  mkdir -p "$dir"
  chown postgres: "$dir"
}

init_cluster() {
  [ -s "$dir/PG_VERSION" ] && return 0
  say "creating a cluster in $dir"
  prepare_owner
  chmod 700 "$dir"
  as_owner "$1/initdb" -D "$dir" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >&2
  cat >>"$dir/postgresql.conf" <<EOF
# scripts/test-postgres.sh
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = on
shared_buffers = 32MB
max_connections = 200
EOF
}

ready() {
  "$1/pg_isready" -q -h 127.0.0.1 -p "$port"
}

start() {
  local bin
  bin="$(bindir)" || true
  # A fresh machine: `cargo test` alone must work, so install it (as root).
  [ -n "$bin" ] || { install; bin="$(bindir)"; }
  mkdir -p "$(dirname "$dir")"
  exec 9>"$dir.lock"
  flock 9
  if ! ready "$bin"; then
    init_cluster "$bin"
    say "starting the server on 127.0.0.1:$port (log: $dir/server.log)"
    # 9>&-: the server must not inherit (and hold forever) the flock.
    as_owner "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start >&2 9>&- ||
      { tail -n 20 "$dir/server.log" >&2 || true; die "the server did not start"; }
    ready "$bin" || die "the server started but does not answer on 127.0.0.1:$port"
  fi
  echo "$url"
}

stop() {
  local bin
  bin="$(bindir)" || die "PostgreSQL is not installed"
  [ -s "$dir/PG_VERSION" ] || { say "no cluster in $dir"; return 0; }
  as_owner "$bin/pg_ctl" -D "$dir" -m fast stop >&2 || true
}

case "${1:-}" in
  --install) install ;;
  --stop) stop ;;
  "") start ;;
  *) die "usage: $0 [--install | --stop]" ;;
esac
