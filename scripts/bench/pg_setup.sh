# Sourced by the PostgreSQL bench scripts (pg_size.sh, peers.sh): installs
# postgresql-15 (+ contrib, for pg_trgm) from apt when missing, starts
# cluster 15/main, and gives root a superuser role (peer authentication).
pg_setup() {
  if ! command -v pg_ctlcluster >/dev/null || [ ! -x /usr/lib/postgresql/15/bin/postgres ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql-15 postgresql-contrib
  fi
  if [ "$(pg_lsclusters -h | awk '$1 == 15 && $2 == "main" { print $4 }')" != online ]; then
    pg_ctlcluster 15 main start
  fi
  if ! su postgres -c "psql -tAc \"SELECT 1 FROM pg_roles WHERE rolname = 'root'\"" | grep -q 1; then
    su postgres -c "createuser -s root"
  fi
}
