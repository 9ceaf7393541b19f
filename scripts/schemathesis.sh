#!/usr/bin/env bash
# Property-based API testing of `proxima serve` against its own OpenAPI
# document with Schemathesis (pinned, from PyPI, in .venv-schemathesis/).
#
# It builds the debug binary, starts it on a private database (DATABASE_URL
# unset: a private cluster under a temporary --data-dir; DATABASE_URL set: a
# fresh database created on that server and dropped afterwards) with a
# bootstrap key, seeds a dataset, a succeeded job and a sweep so that id
# parameters reach real resources (scripts/schemathesis_seed.py; the hooks in
# scripts/schemathesis_hooks.py put seeded ids and valid uploads into
# generated requests, so they reach the success paths), then runs `schemathesis run` with the checks
# not_a_server_error, status_code_conformance, content_type_conformance,
# response_headers_conformance and response_schema_conformance. Exits
# non-zero on any finding.
#
#   scripts/schemathesis.sh                 # 30 examples per operation
#   SCHEMATHESIS_MAX_EXAMPLES=100 scripts/schemathesis.sh
#   SCHEMATHESIS_ARGS="--include-path /v1/audits" scripts/schemathesis.sh
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
VENV=.venv-schemathesis
EXAMPLES="${SCHEMATHESIS_MAX_EXAMPLES:-30}"
SEED="${SCHEMATHESIS_SEED:-1}"

# --- Schemathesis in its own venv -------------------------------------------
if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  rm -rf "$VENV"
  if ! python3 -m venv "$VENV" 2>/dev/null; then
    echo "schemathesis: python3 -m venv failed; installing python3-venv with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q python3-venv
    rm -rf "$VENV"
    python3 -m venv "$VENV"
  fi
  "$VENV/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
PY="$VENV/bin/python"

# --- The server (scripts/lib/private_server.sh) -------------------------------
# shellcheck source=lib/private_server.sh
. scripts/lib/private_server.sh
start_private_server schemathesis --workers 1
WORK="$SERVER_WORK"

# --- Seed: a dataset and a succeeded job --------------------------------------
wait_ready
"$PY" scripts/schemathesis_seed.py "$BASE" "$KEY" "$WORK/ids"
# shellcheck disable=SC1091
. "$WORK/ids"
export DATASET_ID JOB_ID SWEEP_ID SAMPLE_ID
# Seeded ids in generated bodies, uploads that match their schema, a fresh
# dataset for every DELETE (scripts/schemathesis_hooks.py says why).
export PROXIMA_BASE="$BASE" PROXIMA_KEY="$KEY"
export PYTHONPATH="$PWD/scripts${PYTHONPATH:+:$PYTHONPATH}"
export SCHEMATHESIS_HOOKS=schemathesis_hooks

# Id parameters: the seeded resources (cancelling the finished job or sweep
# is a harmless 409).
# The seeds and hooks exist so that no operation is starved of valid data:
# a run where one is (every positive case refused, or 404) fails.
cat >"$WORK/schemathesis.toml" <<'TOML'
[warnings]
fail-on = ["missing_test_data", "validation_mismatch"]

[[operations]]
include-path-regex = "^/v1/datasets/\\{id\\}"
parameters = { "path.id" = "${DATASET_ID}" }

[[operations]]
include-path-regex = "^/v1/jobs/\\{id\\}"
parameters = { "path.id" = "${JOB_ID}" }

[[operations]]
include-path-regex = "^/v1/sweeps/\\{id\\}"
parameters = { "path.id" = "${SWEEP_ID}" }
TOML

echo "schemathesis $SCHEMATHESIS_VERSION: $EXAMPLES examples per operation against $BASE (seed $SEED)"
# Schemathesis reuses ids it reads in responses (the lists name the seeds),
# so DELETE runs last, on its own, after every other operation.
run() {
  "$VENV/bin/schemathesis" --config-file "$WORK/schemathesis.toml" run "$BASE/openapi.json" \
    --header "Authorization: Bearer $KEY" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
    --max-examples "$EXAMPLES" \
    --seed "$SEED" \
    --workers 1 \
    --request-timeout 30 \
    --suppress-health-check too_slow,filter_too_much \
    ${SCHEMATHESIS_ARGS:-} \
    "$@"
}
set +e
run --exclude-method DELETE
status=$?
run --include-method DELETE
second=$?
[ "$status" -eq 0 ] && status=$second
set -e
if [ "$status" -ne 0 ]; then
  echo "schemathesis: findings (exit $status); the server's log:"
  grep -E '"level":"(ERROR|WARN)"' "$SERVER_LOG" | tail -20 || true
fi
exit "$status"
