#!/usr/bin/env bash
# Writes the seed corpus of the cargo-fuzz targets into fuzz/corpus/<target>
# (git-ignored): generated samples plus, when ../shared is present, example
# schemas with the first rows of their tables and small hierarchy files.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test -p proxima-fuzzing --test fuzz -- --ignored --exact seeds::write_seed_corpus
ls fuzz/corpus/*/ | head -50
