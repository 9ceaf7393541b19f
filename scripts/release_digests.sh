#!/usr/bin/env bash
# Prints "case sha256-prefix" for releases of 11 cases on the shared tables (adult k, l, t and
# the JSON form with row ids; sal XColor, (ε,m) at limit 0.25 and relative; creditcard XColor
# with both colourings, (ε,m) by its engine and by Mondrian), made by BIN, a built `proxima`.
# For refactors that must not change a release: run it on the commit before and after, diff.
#   usage: scripts/release_digests.sh target/debug/proxima > digests.txt   (SHARED=../shared)
set -euo pipefail
BIN=${1:?usage: release_digests.sh path/to/proxima}
S=${SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}; T=$(mktemp -d); trap 'rm -rf $T' EXIT
H=(); for c in workclass education marital-status occupation race sex native-country; do H+=(--hierarchy "$c=$S/data/adult/adult_hierarchy_$c.csv"); done
gunzip -c $S/data/sal_synthetic/sal_synthetic_500k.csv.gz > $T/sal500k.csv
run() { name=$1; shift; "$BIN" anonymize "$@" --out $T/$name >$T/$name.stdout 2>$T/$name.err || { echo "$name FAILED rc=$?"; tail -2 $T/$name.err; return; }; echo "$name $(sha256sum < $T/$name | cut -c1-16)"; }
A=(--data $S/data/adult/adult.csv --schema $S/examples/adult.schema.json "${H[@]}")
C=(--data $S/data/creditcard/creditcard.csv --schema $S/examples/creditcard.schema.json)
run adult-k10 "${A[@]}" --model '{"kind":"k_anonymity","k":10}'
run adult-k10-json "${A[@]}" --model '{"kind":"k_anonymity","k":10}' --format json --row-id
run adult-ldiv "${A[@]}" --model '{"kind":"l_diversity","l":2,"variant":"distinct"}' 
run adult-tclose "${A[@]}" --model '{"kind":"t_closeness","t":0.2,"k":10}'
run sal-xcolor --data $T/sal500k.csv --schema $S/examples/sal.schema.json --model '{"kind":"dissimilarity","epsilon":0.01,"delta":0.8,"k":10}' --algorithm xcolor
run credit-xc-qi "${C[@]}" --model '{"kind":"dissimilarity","epsilon":0.001,"delta":0.5,"k":10}' --metric '{"kind":"lp","p":1}' --xcolor-initial qi_aware
run credit-xc-deg "${C[@]}" --model '{"kind":"dissimilarity","epsilon":0.001,"delta":0.5,"k":10}' --metric '{"kind":"lp","p":1}' --xcolor-initial degree_balanced
run credit-em "${C[@]}" --model '{"kind":"epsilon_m","epsilon":1000,"m":4}'
run credit-em-mondrian "${C[@]}" --model '{"kind":"epsilon_m","epsilon":1000,"m":4}' --algorithm mondrian
run sal-em-s25 --data $T/sal500k.csv --schema $S/examples/sal.schema.json --model '{"kind":"epsilon_m","epsilon":4500,"m":5}' --suppression-limit 0.25
run sal-em-rel --data $T/sal500k.csv --schema $S/examples/sal.schema.json --model '{"kind":"epsilon_m","epsilon":0.125,"m":5,"neighborhood":"relative"}'
