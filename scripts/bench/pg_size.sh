#!/usr/bin/env bash
# Index size vs PostgreSQL (Indexer issue §5): loads a canonical dump into
# normalised PostgreSQL 15 tables with the indexes a DBA would add for the
# API (scripts/bench/pg_indexes.sql), then the derived aggregates the index
# also holds (pg_aggregates.sql), VACUUM ANALYZE, and prints
# pg_total_relation_size per table next to `indexer inspect`'s totals.
#
# usage: scripts/bench/pg_size.sh DUMP_DIR INDEX_DIR [LABEL]
#   DUMP_DIR   the dump the index was built from (e.g. /tmp/m-dump)
#   INDEX_DIR  the built index (for `indexer inspect`)
#   LABEL      database suffix, default "s" -> database fundsearch_bench_s
# env: KEEP_DB=1 keeps the database afterwards (default: dropped);
#      CSV_DIR (default /tmp/bench-pg-csv-LABEL, removed afterwards unless KEEP_CSV=1).
# Installs postgresql-15 from apt and starts cluster 15/main when needed.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=scripts/bench

dump=${1:?usage: pg_size.sh DUMP_DIR INDEX_DIR [LABEL]}
index=${2:?usage: pg_size.sh DUMP_DIR INDEX_DIR [LABEL]}
label=${3:-s}
db=fundsearch_bench_${label}
csv=${CSV_DIR:-/tmp/bench-pg-csv-${label}}
as_of=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["as_of"])' "$index/manifest.json")

now() { date +%s.%N; }
secs() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$2"; }

# --- PostgreSQL 15 -----------------------------------------------------------
. "$here/pg_setup.sh"
pg_setup

psql_db() { PGOPTIONS="-c maintenance_work_mem=1GB -c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }

# --- dump -> CSV -------------------------------------------------------------
echo "== $dump -> CSV in $csv"
t0=$(now)
rm -rf "$csv"
python3 "$here/pg_csv.py" "$dump" "$csv"
t1=$(now)
echo "csv conversion: $(secs "$t0" "$t1") s (not counted as load time)"

# --- load --------------------------------------------------------------------
dropdb --if-exists "$db"
createdb "$db"
psql_db -f "$here/pg_schema.sql"
t0=$(now)
for f in "$csv"/*.csv; do
  table=$(basename "$f" .csv)
  psql_db -c "\\copy $table FROM '$f' WITH (FORMAT csv, NULL '\\N')"
done
t1=$(now)
psql_db -f "$here/pg_indexes.sql"
t2=$(now)
psql_db -c "VACUUM ANALYZE"
t3=$(now)
psql_db -v as_of="$as_of" -f "$here/pg_aggregates.sql"
psql_db -c "VACUUM ANALYZE"
t4=$(now)
[ "${KEEP_CSV:-0}" = 1 ] || rm -rf "$csv"

echo
echo "== PostgreSQL $(psql -X -tAc 'SHOW server_version' -d "$db"), database $db"
echo "COPY $(secs "$t0" "$t1") s + keys/indexes $(secs "$t1" "$t2") s + VACUUM ANALYZE $(secs "$t2" "$t3") s" \
     "= $(secs "$t0" "$t3") s; aggregates + their indexes + VACUUM ANALYZE $(secs "$t3" "$t4") s"
psql_db -P footer=off <<'SQL'
WITH t AS (
  SELECT c.relname AS table_name, c.reltuples::bigint AS rows,
         pg_table_size(c.oid) AS heap, pg_indexes_size(c.oid) AS idx, pg_total_relation_size(c.oid) AS total,
         c.relname IN ('company_stats', 'firm_stats', 'person_stats') AS derived
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind = 'r'
)
SELECT table_name, rows, heap AS heap_toast_bytes, idx AS index_bytes, total AS total_bytes,
       pg_size_pretty(total) AS pretty
FROM t ORDER BY derived, total DESC;
SQL
psql_db -tA -F ' ' <<'SQL' > /tmp/pg_size_totals.$$
WITH t AS (
  SELECT pg_table_size(c.oid) AS heap, pg_indexes_size(c.oid) AS idx, pg_total_relation_size(c.oid) AS total,
         c.relname IN ('company_stats', 'firm_stats', 'person_stats') AS derived
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind = 'r'
)
SELECT sum(heap) FILTER (WHERE NOT derived), sum(idx) FILTER (WHERE NOT derived), sum(total) FILTER (WHERE NOT derived),
       sum(heap), sum(idx), sum(total)
FROM t;
SQL
read -r core_heap core_idx core_total all_heap all_idx all_total < /tmp/pg_size_totals.$$
rm -f /tmp/pg_size_totals.$$

# --- the index ---------------------------------------------------------------
indexer=target/release/indexer
[ -x "$indexer" ] || cargo build --release --bin indexer
inspect=$("$indexer" inspect "$index")
ix_total=$(awk '$1 == "total" && NF == 2 { print $2 }' <<<"$inspect")
ix_nostore=$(awk '/^total without record stores/ { print $NF }' <<<"$inspect")

mb() { python3 -c "import sys; print(f'{int(sys.argv[1]) / 1e6:,.1f} MB')" "$1"; }
ratio() { python3 -c "import sys; print(f'{int(sys.argv[1]) / int(sys.argv[2]):.3f}')" "$1" "$2"; }
echo
echo "== summary ($label: $dump, index $index)"
printf '%-58s %14s\n' \
  "PostgreSQL tables (heap+TOAST), normalised dump" "$(mb "$core_heap")" \
  "PostgreSQL indexes on them" "$(mb "$core_idx")" \
  "PostgreSQL tables + indexes (A)" "$(mb "$core_total")" \
  "PostgreSQL + derived aggregate tables and indexes (B)" "$(mb "$all_total")" \
  "  of which indexes" "$(mb "$all_idx")" \
  "index: total without record stores (X)" "$(mb "$ix_nostore")" \
  "index: total with record stores" "$(mb "$ix_total")"
echo "X / A = $(ratio "$ix_nostore" "$core_total")   X / B = $(ratio "$ix_nostore" "$all_total")   (goal: <= 0.5)"
echo "index with stores / B = $(ratio "$ix_total" "$all_total")"

if [ "${KEEP_DB:-0}" != 1 ]; then
  dropdb "$db"
fi
