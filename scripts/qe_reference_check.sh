#!/usr/bin/env bash
# Checks the count-query workload (crates/proxima-core/src/utility/workload.rs)
# query by query against the independent reference scripts/qe_reference.py on
# the releases of the bench cases xc-credit, em-credit, mo-adult, xc-adult and
# em-sal-s25 (which leaves rows out: the true answers count them anyway):
# the core example `qe_dump` writes each release and every query it drew
# (q = 2 and 3, the bench's seed) with its actual and estimated counts; the
# reference re-evaluates each query from the release CSV and the original
# table, checks that it follows the drawing rules, and exits 1 on any
# difference.
#
#   scripts/qe_reference_check.sh            # check
#   scripts/qe_reference_check.sh --fixture  # also rewrite the Rust test's
#                                            # fixture (tests/fixtures/qe_reference.csv)
#
# Needs the shared data (found as the tests find it) and numpy:
# PYTHON defaults to python3; e.g. `python3 -m venv /tmp/venv-qe &&
# /tmp/venv-qe/bin/pip install numpy && PYTHON=/tmp/venv-qe/bin/python …`.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
"$PYTHON" -c 'import numpy' 2>/dev/null || {
  echo "qe_reference_check: $PYTHON has no numpy (set PYTHON to a Python with numpy)" >&2
  exit 2
}
fixture=
[ "${1:-}" = --fixture ] && fixture=crates/proxima-core/tests/fixtures/qe_reference.csv

# As proxima-testdata looks for it: $PROXIMA_SHARED_DATA, else shared/data
# beside the checkout or one or two folders up (worktrees).
data=${PROXIMA_SHARED_DATA:-}
if [ -z "$data" ]; then
  for d in shared/data ../shared/data ../../shared/data; do
    [ -d "$d" ] && { data=$d; break; }
  done
fi
[ -n "$data" ] && [ -d "$data/creditcard" ] || { echo "qe_reference_check: no shared data folder" >&2; exit 2; }
examples=$data/../examples

cargo build -q --release -p proxima-core --example qe_dump
target=${CARGO_TARGET_DIR:-target}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

if [ -n "$fixture" ]; then
  mkdir -p "$(dirname "$fixture")"
  echo "case,q,item,value,value" > "$fixture"
fi

adult=()
for c in sex race marital-status education native-country workclass occupation; do
  adult+=(--hierarchy "$c=$data/adult/adult_hierarchy_$c.csv")
done
full=()
for c in workclass education marital-status relationship race sex native-country; do
  full+=(--hierarchy "$c=$data/adult_full/adult_full_hierarchy_$c.csv")
done

status=0
for case in xc-credit em-credit mo-adult xc-adult em-sal-s25; do
  "$target/release/examples/qe_dump" "$case" "$out"
  case $case in
    *-credit) input=(--schema "$examples/creditcard.schema.json" --data "$data/creditcard/creditcard.csv") ;;
    mo-adult) input=(--schema "$examples/adult.schema.json" --data "$data/adult/adult.csv" "${adult[@]}") ;;
    # The bench drops adult_full's rows with a `?` before the job.
    xc-adult) input=(--schema "$examples/adult_full_composite.schema.json"
                     --data "$data/adult_full/adult_full.csv" "${full[@]}" --drop-rows-with '?') ;;
    em-sal-s25) input=(--schema "$examples/sal.schema.json"
                       --data "$data/sal_synthetic/sal_synthetic_500k.csv.gz") ;;
  esac
  for q in 2 3; do
    extra=()
    [ -n "$fixture" ] && extra=(--fixture-case "$case" --out "$fixture")
    "$PYTHON" scripts/qe_reference.py "${input[@]}" --release "$out/$case.csv" \
      --queries-from "$out/$case.q$q.jsonl" "${extra[@]}" || status=1
  done
done
exit $status
