#!/usr/bin/env bash
# Generates the Python client (clients/python) from the committed OpenAPI
# document (openapi/openapi.json) with a pinned openapi-python-client, in its
# own venv (.venv-clients/, gitignored; python3-venv is installed with
# apt-get when missing).
#
#   scripts/clients/generate.sh           # rewrite clients/python
#   scripts/clients/generate.sh --check   # generate into a temporary
#                                         # directory and diff: exit 1 when
#                                         # clients/python is stale
#   scripts/clients/generate.sh --out DIR # generate into DIR
#   scripts/clients/generate.sh --document
#                                         # first regenerate the document
#                                         # from the code (`cargo run --
#                                         # openapi`), then clients/python:
#                                         # the one command after changing a
#                                         # route or a DTO
set -euo pipefail
cd "$(dirname "$0")/../.."

GENERATOR_VERSION=0.29.1
RUFF_VERSION=0.17.6
VENV=.venv-clients
CLIENT=clients/python

mode=write
out="$CLIENT"
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  --out) out="${2:?--out needs a directory}" ;;
  --document)
    cargo run -q -- openapi >openapi/openapi.json.new
    mv openapi/openapi.json.new openapi/openapi.json
    echo "clients: regenerated openapi/openapi.json from the code"
    ;;
  *) echo "usage: $0 [--check | --out DIR | --document]" >&2; exit 2 ;;
esac

# --- The pinned generator in its venv ---------------------------------------
if ! "$VENV/bin/openapi-python-client" --version 2>/dev/null | grep -q "$GENERATOR_VERSION" \
   || ! "$VENV/bin/ruff" --version 2>/dev/null | grep -q "$RUFF_VERSION"; then
  rm -rf "$VENV"
  if ! python3 -m venv "$VENV" 2>/dev/null; then
    echo "clients: python3 -m venv failed; installing python3-venv with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q python3-venv
    rm -rf "$VENV"
    python3 -m venv "$VENV"
  fi
  "$VENV/bin/pip" install -q --disable-pip-version-check \
    "openapi-python-client==$GENERATOR_VERSION" "ruff==$RUFF_VERSION"
fi

generate() {
  # The generator refuses an existing output directory; ruff (its post
  # hooks) must be the pinned one.
  rm -rf "$1"
  mkdir -p "$(dirname "$1")"
  PATH="$PWD/$VENV/bin:$PATH" "$VENV/bin/openapi-python-client" generate \
    --path openapi/openapi.json \
    --config scripts/clients/python-config.yaml \
    --custom-template-path scripts/clients/templates \
    --output-path "$1" \
    --fail-on-warning >/dev/null
}

if [ "$mode" = write ]; then
  generate "$out"
  echo "clients: generated $out from openapi/openapi.json (openapi-python-client $GENERATOR_VERSION)"
  exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
generate "$tmp/python"
if diff -r -x __pycache__ "$tmp/python" "$CLIENT" >"$tmp/diff" 2>&1; then
  echo "clients: $CLIENT matches openapi/openapi.json"
else
  head -50 "$tmp/diff"
  echo "clients: $CLIENT is stale: regenerate it with scripts/clients/generate.sh"
  exit 1
fi
