#!/usr/bin/env bash
# Regenerates .sqlx/, the offline data the query macros (sqlx::query! and
# friends) check the SQL against when building (.cargo/config.toml sets
# SQLX_OFFLINE=true): every checked query's parameter and column types and
# nullability, as PostgreSQL describes them on a database migrated with
# migrations/. Run it after adding or changing a query or a migration, and
# commit .sqlx/ with the change.
#
#   scripts/sqlx_prepare.sh          rewrite .sqlx/
#   scripts/sqlx_prepare.sh --check  fail (and say so) when .sqlx/ is not
#                                    what the queries need (CI, .ci/run)
#
# The database: a throwaway one created on DATABASE_URL's server and
# dropped afterwards (DATABASE_URL must name a database, e.g.
# postgres://postgres@127.0.0.1:5432/postgres), else on a private cluster
# started from the machine's PostgreSQL binaries (as the tests do). Needs
# psql. No sqlx-cli: the macros write the data themselves when built with
# SQLX_OFFLINE_DIR and a live DATABASE_URL.
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

work=$(mktemp -d)
chmod 755 "$work"
admin_url=""
db=""
run_as=()
cleanup() {
  if [ -n "$db" ]; then
    psql -q -X "$admin_url" -c "DROP DATABASE IF EXISTS \"$db\"" >/dev/null 2>&1 || true
  fi
  if [ -f "$work/pg/postmaster.pid" ]; then
    "${run_as[@]}" "$bindir/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

find_bindir() {
  local d
  if command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"; return
  fi
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
    pg_config --bindir; return
  fi
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && { echo "$d"; return; }
  done
  return 1
}

if [ -n "${DATABASE_URL:-}" ]; then
  admin_url=$DATABASE_URL
else
  # A private cluster on a free port; initdb and postgres refuse to run as
  # root, so as root they run as `postgres` (else `nobody`).
  bindir=$(find_bindir) || {
    echo "sqlx_prepare: set DATABASE_URL or install the PostgreSQL server binaries" >&2
    exit 1
  }
  if [ "$(id -u)" = 0 ]; then
    user=postgres
    id "$user" >/dev/null 2>&1 || user=nobody
    chown "$user" "$work"
    run_as=(runuser -u "$user" --)
  fi
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "${run_as[@]}" "$bindir/initdb" -D "$work/pg" -U postgres --auth=trust -E UTF8 >/dev/null
  "${run_as[@]}" "$bindir/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w \
    -o "-p $port -k $work/pg -c listen_addresses=127.0.0.1" start >/dev/null
  admin_url="postgres://postgres@127.0.0.1:$port/postgres"
fi

# The throwaway database: same server, user and options, another name.
db="proxima_sqlx_prepare_$$"
base=${admin_url%%\?*}
options=${admin_url#"$base"}
url="${base%/*}/$db$options"
psql -q -X -v ON_ERROR_STOP=1 "$admin_url" -c "CREATE DATABASE \"$db\"" >/dev/null

# The schema the service migrates to (each file in one transaction, as
# sqlx's migrator runs them), and the table the migrator keeps, which
# Store::ready reads (its definition is sqlx 0.9's).
for f in migrations/*.sql; do
  psql -q -X -v ON_ERROR_STOP=1 --single-transaction "$url" -f "$f" >/dev/null
done
psql -q -X -v ON_ERROR_STOP=1 "$url" >/dev/null <<'SQL'
CREATE TABLE _sqlx_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    installed_on TIMESTAMPTZ NOT NULL DEFAULT now(),
    success BOOLEAN NOT NULL,
    checksum BYTEA NOT NULL,
    execution_time BIGINT NOT NULL
);
SQL

# Every crate of the workspace, every target, compiled against the live
# database; the macros write one query-<hash>.json per query into
# SQLX_OFFLINE_DIR. Touching the crate roots makes cargo expand the macros
# again (it does not track the variables the macros read).
mkdir "$work/sqlx"
touch src/lib.rs crates/*/src/lib.rs
SQLX_OFFLINE=false SQLX_OFFLINE_DIR="$work/sqlx" DATABASE_URL="$url" \
  cargo check --quiet --workspace --all-targets
# The next ordinary build expands the macros from .sqlx/ again.
touch src/lib.rs crates/*/src/lib.rs

if [ "$check" = 1 ]; then
  if diff -r .sqlx "$work/sqlx" >"$work/diff" 2>&1; then
    echo "sqlx_prepare: .sqlx/ is current ($(ls "$work/sqlx" | wc -l) queries)"
    exit 0
  fi
  cat "$work/diff" | head -40
  echo "sqlx_prepare: .sqlx/ does not match the queries; run scripts/sqlx_prepare.sh and commit .sqlx/" >&2
  exit 1
fi
rm -rf .sqlx
cp -r "$work/sqlx" .sqlx
echo "sqlx_prepare: wrote .sqlx/ ($(ls .sqlx | wc -l) queries)"
