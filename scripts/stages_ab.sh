#!/usr/bin/env bash
# Alternates built `proxima` binaries on adult 600k (side_by_side.py's schema and QIs, k = 10),
# ROUNDS rounds of one whole run each, and prints each binary's median wall time per stage
# (`--timings`). On a shared or noisy machine the same binary's time moves from one minute to
# the next; alternating puts every binary in the same minutes, so the medians compare.
#   usage: scripts/stages_ab.sh ROUNDS BIN... [-- extra anonymize flags]   (SHARED=../shared)
set -euo pipefail
ROUNDS=${1:?usage: stages_ab.sh ROUNDS BIN... [-- flags]}; shift
BINS=(); while [ $# -gt 0 ] && [ "$1" != "--" ]; do BINS+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
S=${SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}; T=$(mktemp -d); trap 'rm -rf $T' EXIT
gunzip -c $S/data/adult_scaled_synthetic/adult_full_synthetic_600k.csv.gz > $T/600k.csv
H=(); for c in workclass education marital-status relationship race sex native-country; do
  H+=(--hierarchy "$c=$S/data/adult_full/adult_full_hierarchy_$c.csv"); done
for r in $(seq "$ROUNDS"); do
  for i in "${!BINS[@]}"; do
    "${BINS[$i]}" anonymize --data $T/600k.csv --schema $S/peers/arx/adult_full_600k.schema.json \
      "${H[@]}" --model '{"kind":"k_anonymity","k":10}' --out $T/out.csv --timings "$@" \
      2>&1 >/dev/null | tail -1 >> $T/bin$i.jsonl
  done
done
for i in "${!BINS[@]}"; do
  python3 - "${BINS[$i]}" $T/bin$i.jsonl <<'PY'
import json, statistics, sys
rows = [json.loads(l)["timings_ms"] for l in open(sys.argv[2])]
keys = ["read", "partition", "generalize", "guard", "write", "total"]
print(sys.argv[1], " ".join(f"{k}={statistics.median(r[k] for r in rows):.0f}" for k in keys), "ms")
PY
done
