#!/usr/bin/env bash
# Compiles portal.ts with `tsc --strict` against openapi-typescript's types
# of the committed openapi/openapi.json. Both tools are pinned in
# package.json / package-lock.json and installed here with `npm ci`
# (node_modules/, gitignored); node and npm come from apt-get when missing.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v npm >/dev/null 2>&1; then
  echo "clients/ts: npm not found; installing nodejs and npm with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q nodejs npm
fi
npm ci --no-audit --no-fund --loglevel=error >/dev/null
mkdir -p generated
npx --no-install openapi-typescript ../../../openapi/openapi.json -o generated/proxima.d.ts >/dev/null
npx --no-install tsc --strict -p tsconfig.json
echo "clients/ts: portal.ts compiles with tsc --strict against openapi-typescript $(npx --no-install openapi-typescript --version 2>/dev/null | grep -o '[0-9.]*' | head -1)"
