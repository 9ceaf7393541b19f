# Sourced by scripts that need a real `proxima serve` on a private database
# (scripts/schemathesis.sh, scripts/clients/check.sh). After
# `start_private_server NAME [serve flags…]`:
#   BASE  the server's URL (http://127.0.0.1:PORT, a free port)
#   KEY   its bootstrap API key
#   SERVER_LOG  its log (JSON lines)
#   SERVER_WORK a temporary directory for the caller's files, removed on exit
# With DATABASE_URL unset the server runs its own cluster under a temporary
# --data-dir; with DATABASE_URL set, a fresh database NAME_<random> is
# created on that server and dropped afterwards. `wait_ready` waits for
# /readyz. Everything is undone on exit (an EXIT trap).
#
# Needs python3 (for free ports, random names and URL editing) and the debug
# binary (built here with `cargo build -q --bin proxima`).

_ps_work=""
_ps_pid=""
_ps_drop_db=""
_ps_admin_url=""

_ps_cleanup() {
  if [ -n "$_ps_pid" ]; then
    kill "$_ps_pid" 2>/dev/null || true
    wait "$_ps_pid" 2>/dev/null || true
  fi
  if [ -n "$_ps_drop_db" ]; then
    psql -q "$_ps_admin_url" -c "DROP DATABASE IF EXISTS $_ps_drop_db" >/dev/null 2>&1 || true
  fi
  [ -z "$_ps_work" ] || rm -rf "$_ps_work"
}

start_private_server() {
  local name="$1"
  shift
  cargo build -q --bin proxima
  _ps_work="$(mktemp -d)"
  # The private cluster runs as an unprivileged account when we are root.
  chmod 755 "$_ps_work"
  trap _ps_cleanup EXIT
  local port
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  KEY="pxk_${name}_$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
  BASE="http://127.0.0.1:$port"
  SERVER_LOG="$_ps_work/serve.log"
  SERVER_WORK="$_ps_work"
  if [ -n "${DATABASE_URL:-}" ]; then
    local db
    db="${name}_$(python3 -c 'import secrets; print(secrets.token_hex(6))')"
    # Same server, database `postgres` for the CREATE.
    _ps_admin_url="$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/postgres")))' "$DATABASE_URL")"
    psql -q "$_ps_admin_url" -c "CREATE DATABASE $db" >/dev/null
    _ps_drop_db="$db"
    export DATABASE_URL="$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))' "$DATABASE_URL" "$db")"
  fi
  target/debug/proxima serve --bind "127.0.0.1:$port" --data-dir "$_ps_work" \
    --bootstrap-key "$KEY" --log-format json "$@" >"$SERVER_LOG" 2>&1 &
  _ps_pid=$!
  export BASE KEY SERVER_LOG SERVER_WORK
}

# Waits (up to 120 s) until /readyz answers 200.
wait_ready() {
  python3 - "$BASE" <<'PY'
import sys, time, urllib.request
deadline = time.time() + 120
while True:
    try:
        urllib.request.urlopen(sys.argv[1] + "/readyz", timeout=2).read()
        break
    except Exception:
        if time.time() > deadline:
            sys.exit("the server did not become ready")
        time.sleep(0.5)
PY
}
