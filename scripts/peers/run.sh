#!/usr/bin/env bash
# Side-by-side timings against the Python peers (anjana, pycanon) on the
# same data and parameters, in one go:
#   1. installs the pinned peers into .venv-peers/ (gitignored; once),
#   2. builds Proxima (release) and runs its counterpart cases,
#   3. writes the 600k Mondrian k=10 release that pycanon audits,
#   4. times the peers and prints peer / Proxima ratios.
# Usage: scripts/peers/run.sh [RUNS]   (default 3 timed runs after a warm-up)
# PEER_CASES=mo-adult,au-600k-k limits the peer runs to those counterparts.
# Output: the table on stdout; JSON in target/bench/peers.json.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
runs="${1:-3}"
out="$root/target/bench"
mkdir -p "$out"

data="${PROXIMA_SHARED_DATA:-}"
if [ -z "$data" ]; then
  for d in "$root/../shared/data" "$root/../../shared/data"; do
    if [ -d "$d" ]; then data="$(cd "$d" && pwd)"; break; fi
  done
fi
[ -n "$data" ] || { echo "no shared data folder (set PROXIMA_SHARED_DATA)" >&2; exit 2; }
export PROXIMA_SHARED_DATA="$data"

venv="$root/.venv-peers"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import anjana, pycanon' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet -r "$here/requirements.txt"
fi

cargo build --release --quiet -p proxima -p proxima-tools
proxima="$root/target/release/proxima"

"$root/target/release/proxima-tools" bench --runs "$runs" \
  --case mo-adult --case mo-adult-l --case mo-adult-t \
  --case au-600k-k --case au-600k-l --case au-600k-t \
  --json "$out/peers-proxima.json" > "$out/peers-proxima.md" || {
  cat "$out/peers-proxima.md"; echo "proxima-tools bench failed" >&2; exit 1; }

release="$out/adult600k-mondrian-k10.csv"
if [ ! -s "$release" ]; then
  "$proxima" anonymize \
    --data "$data/adult_scaled_synthetic/adult_full_synthetic_600k.csv.gz" \
    --schema "$here/adult600k.schema.json" \
    $(for c in sex race marital-status education native-country workclass occupation; do
        printf -- '--hierarchy %s=%s ' "$c" "$data/adult/adult_hierarchy_$c.csv"; done) \
    --model '{"kind": "k_anonymity", "k": 10}' --out "$release.part" 2>/dev/null
  mv "$release.part" "$release"
fi

"$venv/bin/python" "$here/peers.py" --data "$data" --runs "$runs" \
  --proxima-json "$out/peers-proxima.json" --release-600k "$release" \
  --json "$out/peers.json"
