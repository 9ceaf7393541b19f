#!/usr/bin/env bash
# Property-based API testing of `proxima serve` against its own OpenAPI
# document with Schemathesis (pinned, from PyPI, in .venv-schemathesis/).
#
# It builds the debug binary, starts it on a private database (DATABASE_URL
# unset: a private cluster under a temporary --data-dir; DATABASE_URL set: a
# fresh database created on that server and dropped afterwards) with a
# bootstrap key, seeds a dataset and a succeeded job so that id parameters
# reach real resources, then runs `schemathesis run` with the checks
# not_a_server_error, status_code_conformance, content_type_conformance,
# response_headers_conformance and response_schema_conformance. Exits
# non-zero on any finding.
#
#   scripts/schemathesis.sh                 # 30 examples per operation
#   SCHEMATHESIS_MAX_EXAMPLES=100 scripts/schemathesis.sh
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
"$PY" - "$BASE" "$KEY" "$WORK/ids" <<'PY'
import json, sys, time, urllib.request, urllib.error

base, key, out = sys.argv[1], sys.argv[2], sys.argv[3]
auth = {"Authorization": f"Bearer {key}"}

def call(method, path, body=None, headers=None):
    req = urllib.request.Request(base + path, data=body, method=method,
                                 headers={**auth, **(headers or {})})
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.load(res)

deadline = time.time() + 120

schema = {"name": "people", "columns": [
    {"name": "age", "role": "quasi_identifier", "type": "numeric"},
    {"name": "zip", "role": "quasi_identifier", "type": "categorical"},
    {"name": "salary", "role": "sensitive", "type": "numeric"}]}
rows = "".join(f"{20 + i % 50},{1000 * (1 + i % 5)},{30 + i % 40}\n" for i in range(200))
parts = [("schema", "application/json", json.dumps(schema)),
         ("data", "text/csv", "age,zip,salary\n" + rows),
         ("hierarchy:zip", "text/csv", "".join(f"{1000 * k};*\n" for k in range(1, 6)))]
boundary = "schemathesis-seed-boundary"
body = b""
for name, ctype, text in parts:
    body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n"
             f"Content-Type: {ctype}\r\n\r\n{text}\r\n").encode()
body += f"--{boundary}--\r\n".encode()
ds = call("POST", "/v1/datasets", body,
          {"Content-Type": f"multipart/form-data; boundary={boundary}"})
job = call("POST", "/v1/jobs",
           json.dumps({"dataset_id": ds["id"],
                       "model": {"kind": "k_anonymity", "k": 2}}).encode(),
           {"Content-Type": "application/json"})
while job["status"] in ("queued", "running"):
    if time.time() > deadline:
        sys.exit("schemathesis: the seed job did not finish")
    time.sleep(0.2)
    job = call("GET", f"/v1/jobs/{job['id']}")
if job["status"] != "succeeded":
    sys.exit(f"schemathesis: the seed job ended {job['status']}: {job.get('error')}")
with open(out, "w") as f:
    f.write(f"DATASET_ID={ds['id']}\nJOB_ID={job['id']}\n")
PY
# shellcheck disable=SC1091
. "$WORK/ids"
export DATASET_ID JOB_ID

# Id parameters: the seeded resources (cancelling the finished job is a
# harmless 409).
cat >"$WORK/schemathesis.toml" <<'TOML'
[[operations]]
include-path-regex = "^/v1/datasets/\\{id\\}"
parameters = { "path.id" = "${DATASET_ID}" }

[[operations]]
include-path-regex = "^/v1/jobs/\\{id\\}"
parameters = { "path.id" = "${JOB_ID}" }
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
