#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on a free port on 127.0.0.1 for tests and benchmarks.
#   source scripts/postgres-sandbox.sh   → exports PG_SANDBOX_URL and stops the server on exit
set -euo pipefail

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ]; then
  echo "PostgreSQL server binaries not found; install them with: apt-get install -y postgresql" >&2
  return 1 2>/dev/null || exit 1
fi

pg_dir=$(mktemp -d /tmp/running-times-pg.XXXXXX)
pg_port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
run_as_postgres() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}
if [ "$(id -u)" = 0 ]; then chown postgres "$pg_dir"; fi
run_as_postgres "'$pg_bin/initdb' -D '$pg_dir/data' -U postgres --auth=trust --no-sync -E UTF8 >'$pg_dir/initdb.log'"
run_as_postgres "'$pg_bin/pg_ctl' -D '$pg_dir/data' -l '$pg_dir/server.log' -w -o \"-h 127.0.0.1 -p $pg_port -k '$pg_dir' -c fsync=off -c max_connections=300\" start >/dev/null"

pg_sandbox_stop() {
  run_as_postgres "'$pg_bin/pg_ctl' -D '$pg_dir/data' -m fast stop >/dev/null" || true
  rm -rf "$pg_dir"
}
trap pg_sandbox_stop EXIT

export PG_SANDBOX_DIR="$pg_dir"
export PG_SANDBOX_BIN="$pg_bin"
export PG_SANDBOX_URL="postgres://postgres@127.0.0.1:$pg_port/postgres"
echo "PostgreSQL sandbox at $PG_SANDBOX_URL"
