#!/usr/bin/env bash
# Times GET /v1/jobs/{id}/report on a 500k-row job (target ≤ 2 s, release
# build) against a freshly spawned `proxima serve` on its own private
# PostgreSQL, and reads the server's peak RSS (VmHWM) after the job and
# after the reports: the report loads the dataset and the release as the
# job did, so its peak should not exceed the job's.
#
#   cargo build --release && scripts/report-bench.sh [RUNS]
#
# Case: sal_synthetic 500k (../shared/data), XColor ε=0.01 δ=0.8 k=10 (the
# bench's xc-sal), population size 5,000,000. Each report is timed with
# curl from the request to its last byte; JSON (internal), HTML (internal)
# and HTML (external), RUNS times each after one warm-up of each.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${1:-5}
BIN=target/release/proxima
DATA=../shared/data/sal_synthetic/sal_synthetic_500k.csv.gz
SCHEMA=../shared/examples/sal.schema.json
[ -x "$BIN" ] || { echo "build first: cargo build --release" >&2; exit 1; }
[ -f "$DATA" ] || { echo "skipped: $DATA is absent" >&2; exit 0; }

TMP=$(mktemp -d)
chmod 755 "$TMP" # PostgreSQL runs as `postgres` when we are root
PORT=$((20000 + RANDOM % 20000))
KEY=report-bench-$RANDOM$RANDOM
API=http://127.0.0.1:$PORT
env -u DATABASE_URL "$BIN" serve --bind "127.0.0.1:$PORT" --data-dir "$TMP/data" \
  --bootstrap-key "$KEY" > "$TMP/server.log" 2>&1 &
SERVER=$!
cleanup() { kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT
for _ in $(seq 1 600); do
  curl -sf "$API/readyz" > /dev/null && break
  sleep 0.2
done
curl -sf "$API/readyz" > /dev/null || { cat "$TMP/server.log"; exit 1; }

hwm() { awk '/VmHWM/ {printf "%.0f MiB", $2 / 1024}' "/proc/$SERVER/status"; }
auth=(-H "Authorization: Bearer $KEY")

python3 - "$SCHEMA" > "$TMP/schema.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
s["population"] = {"size": 5000000}
print(json.dumps(s))
EOF
DATASET=$(curl -sf "${auth[@]}" "$API/v1/datasets" \
  -F "schema=@$TMP/schema.json;type=application/json" -F "data=@$DATA" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
JOB=$(curl -sf "${auth[@]}" "$API/v1/jobs" -H 'content-type: application/json' \
  -d "{\"dataset_id\": \"$DATASET\", \"model\": {\"kind\": \"dissimilarity\", \"epsilon\": 0.01, \"delta\": 0.8, \"k\": 10}}" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
while :; do
  STATUS=$(curl -sf "${auth[@]}" "$API/v1/jobs/$JOB" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
  case "$STATUS" in queued|running) sleep 0.2 ;; *) break ;; esac
done
[ "$STATUS" = succeeded ] || { echo "the job $STATUS" >&2; exit 1; }
AFTER_JOB=$(hwm)

time_report() { # QUERY -> seconds to the last byte
  curl -sf "${auth[@]}" -o "$TMP/out" -w '%{time_total}\n' "$API/v1/jobs/$JOB/report$1"
}
summarize() { # label, then seconds on stdin
  sort -n | awk -v label="$1" '{a[NR] = $1} END {
    printf "%-28s median %.3f s  min %.3f s  max %.3f s  (%d runs)\n",
      label, a[int((NR + 1) / 2)], a[1], a[NR], NR}'
}
for q in "?format=json" "" "?audience=external"; do
  time_report "$q" > /dev/null # warm-up
  for _ in $(seq 1 "$RUNS"); do time_report "$q"; done |
    summarize "report${q:-" (html, internal)"}"
done
echo "report bytes (html, external): $(wc -c < "$TMP/out")"
echo "server peak RSS after upload + job: $AFTER_JOB; after the reports: $(hwm)"
