#!/usr/bin/env bash
# Peers in one run (issue 17 §4): our collection searches against DuckDB and
# PostgreSQL on the same dump, same requests, answers checked.
#
#  1. installs the peers: PostgreSQL 15 from apt (pg_setup.sh, as pg_size.sh)
#     and DuckDB + psycopg from PyPI, pinned, into a venv under target/;
#  2. converts the dump to CSV (pg_csv.py) and loads it into both engines
#     (peers.py load: pg_schema.sql + COPY + pg_indexes.sql, then the derived
#     tables of peers_derived.sql and, on PostgreSQL, peers_indexes.sql);
#  3. runs our bench (benches/search_latency.rs) on the index built from that
#     dump, which times QUERIES requests per class (C1-C5, selective) for
#     ROUNDS rounds and writes them with our total_count, page and timings
#     (--write-requests);
#  4. replays those requests as SQL on both engines (peers.py run): warm-up,
#     ROUNDS timed rounds, one client; compares every total_count and page
#     (ids in order) with ours and prints p50 / p99 per class and engine and
#     the ratio to ours. Exits non-zero on any mismatch.
#
# usage: scripts/bench/peers.sh INDEX_DIR DUMP_DIR [LABEL]
#   INDEX_DIR  an index built from DUMP_DIR (e.g. target/bench-data/s-7-index)
#   DUMP_DIR   its dump (plain *.jsonl, or *.jsonl.zst from generate --compress:
#              read through the zstd tool, installed from apt when missing)
#   LABEL      names the work dir and the database (default s)
# env: QUERIES (default 200 per class), ROUNDS (default 3),
#      PEERS_WORK (default target/peers-LABEL: CSV, DuckDB file, requests),
#      SKIP_LOAD=1 reuses the databases of an earlier run with this LABEL,
#      KEEP_DB=1 keeps the PostgreSQL database and DuckDB file afterwards,
#      PEERS (default duckdb,postgresql): the engines to load and run.
# Runs as root (apt, cluster start). Disk: about 3x the dump for the CSV and
# both databases (the CSV is removed after the load).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=scripts/bench

index=${1:?usage: peers.sh INDEX_DIR DUMP_DIR [LABEL]}
dump=${2:?usage: peers.sh INDEX_DIR DUMP_DIR [LABEL]}
label=${3:-s}
queries=${QUERIES:-200}
rounds=${ROUNDS:-3}
work=${PEERS_WORK:-target/peers-$label}
db=fundsearch_peers_$label
duck=$work/peers.duckdb
venv=target/peers-venv
py=$venv/bin/python
peers=${PEERS:-duckdb,postgresql}
with_pg() { [[ ",$peers," == *,postgresql,* ]]; }

# --- 1. peers ----------------------------------------------------------------
if with_pg; then
  . "$here/pg_setup.sh"
  pg_setup
fi
if ! "$py" -c 'import duckdb, psycopg' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q 'duckdb==2.0.0' 'psycopg[binary]==3.3.9'
fi
mkdir -p "$work"

# --- 2. load -----------------------------------------------------------------
if [ "${SKIP_LOAD:-0}" != 1 ]; then
  echo "== $dump -> CSV"
  if compgen -G "$dump/*.jsonl.zst" >/dev/null && ! command -v zstd >/dev/null; then
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y zstd
  fi
  rm -rf "$work/csv" "$duck"
  python3 "$here/pg_csv.py" "$dump" "$work/csv"
  if with_pg; then
    dropdb --if-exists "$db"
    createdb "$db"
  fi
  echo "== load"
  "$py" "$here/peers.py" load --csv "$PWD/$work/csv" --duckdb "$duck" --pg "$db" --engines "$peers"
  rm -rf "$work/csv"
fi

# --- 3. ours -----------------------------------------------------------------
echo "== ours: search_latency on $index"
FUNDSEARCH_BENCH_INDEX=$index cargo bench --bench search_latency -- \
  --queries "$queries" --rounds "$rounds" --write-requests "$PWD/$work/requests.jsonl"

# --- 4. peers ----------------------------------------------------------------
echo
echo "== peers: the same requests as SQL"
status=0
"$py" "$here/peers.py" run "$work/requests.jsonl" --duckdb "$duck" --pg "$db" --rounds "$rounds" \
  --engines "$peers" || status=$?

if [ "${KEEP_DB:-0}" != 1 ]; then
  if with_pg; then dropdb "$db"; fi
  rm -f "$duck" "$duck.wal"
fi
exit "$status"
