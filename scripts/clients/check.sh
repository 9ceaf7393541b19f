#!/usr/bin/env bash
# The generated clients' checks, run by .ci/run:
#   1. clients/python is what scripts/clients/generate.sh makes of the
#      committed openapi/openapi.json (drift);
#   2. the portal flow (portal_flow.py) through a Python client generated
#      afresh from the committed document, against a real `proxima serve` on
#      a private database (scripts/lib/private_server.sh), one check per
#      step; skipped with a reason when ../shared (the tables) is absent;
#   3. the four-eyes sign-off (four_eyes_flow.py) the same way, needing no
#      shared data;
#   4. a TypeScript portal snippet compiles with `tsc --strict` against
#      openapi-typescript's output (ts/check.sh).
# Ends with `clients: N passed, M failed`; exits 1 when anything failed.
set -uo pipefail
cd "$(dirname "$0")/../.."

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }

if scripts/clients/generate.sh --check; then
  pass "clients/python matches the committed document"
else
  fail "clients/python matches the committed document"
fi

if [ ! -d ../shared/data/adult ] || [ ! -d ../shared/data/adult_full ] || [ ! -d ../shared/data/creditcard ] || [ ! -d ../shared/examples ]; then
  echo "skip - portal flow: ../shared/data/{adult,adult_full,creditcard} or ../shared/examples is absent"
else
  flow_log="$(mktemp)"
  (
    set -e
    # shellcheck source=../lib/private_server.sh
    . scripts/lib/private_server.sh
    start_private_server portal --workers 1
    scripts/clients/generate.sh --out "$SERVER_WORK/python" >/dev/null
    wait_ready
    PYTHONPATH="$SERVER_WORK/python" .venv-clients/bin/python scripts/clients/portal_flow.py \
      "$BASE" "$KEY" ../shared || {
      echo "clients: the server's log:"
      grep -E '"level":"(ERROR|WARN)"' "$SERVER_LOG" | tail -20 || true
      exit 1
    }
    # The README's flow, copied out of the README as a reader would and run
    # from the project root, where the README says to run it.
    python3 - clients/python/README.md >"$SERVER_WORK/readme_flow.py" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"```python\n(.*?)```", text, re.S)
print(blocks[0])
PY
    if PYTHONPATH="$SERVER_WORK/python" PROXIMA_URL="$BASE" PROXIMA_KEY="$KEY" \
      .venv-clients/bin/python "$SERVER_WORK/readme_flow.py"; then
      echo "readme flow: 1 passed, 0 failed"
    else
      echo "readme flow: 0 passed, 1 failed"
    fi
  ) 2>&1 | tee "$flow_log"
  readme="$(grep -E '^readme flow: [0-9]+ passed, [0-9]+ failed$' "$flow_log" | tail -1)"
  case "$readme" in
    "readme flow: 1 passed, 0 failed") pass "the client README's flow runs as copied" ;;
    *) fail "the client README's flow runs as copied" ;;
  esac
  summary="$(grep -E '^portal flow: [0-9]+ passed, [0-9]+ failed$' "$flow_log" | tail -1)"
  if [ -n "$summary" ]; then
    read -r p f <<<"$(sed -E 's/^portal flow: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/' <<<"$summary")"
    passed=$((passed + p))
    failed=$((failed + f))
  else
    fail "portal flow (it did not run to its summary)"
  fi
  rm -f "$flow_log"
fi

# The four-eyes sign-off (four_eyes_flow.py) through a client generated
# afresh, on its own private server; needs no shared data.
flow_log="$(mktemp)"
(
  set -e
  # shellcheck source=../lib/private_server.sh
  . scripts/lib/private_server.sh
  start_private_server foureyes --workers 1
  scripts/clients/generate.sh --out "$SERVER_WORK/python" >/dev/null
  wait_ready
  PYTHONPATH="$SERVER_WORK/python" .venv-clients/bin/python scripts/clients/four_eyes_flow.py \
    "$BASE" "$KEY" || {
    echo "clients: the server's log:"
    grep -E '"level":"(ERROR|WARN)"' "$SERVER_LOG" | tail -20 || true
    exit 1
  }
) 2>&1 | tee "$flow_log"
summary="$(grep -E '^four-eyes flow: [0-9]+ passed, [0-9]+ failed$' "$flow_log" | tail -1)"
if [ -n "$summary" ]; then
  read -r p f <<<"$(sed -E 's/^four-eyes flow: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/' <<<"$summary")"
  passed=$((passed + p))
  failed=$((failed + f))
else
  fail "four-eyes flow (it did not run to its summary)"
fi
rm -f "$flow_log"

if scripts/clients/ts/check.sh; then
  pass "TypeScript portal snippet compiles with tsc --strict"
else
  fail "TypeScript portal snippet compiles with tsc --strict"
fi

echo "clients: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
