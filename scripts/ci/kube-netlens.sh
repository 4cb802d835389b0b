#!/usr/bin/env bash
# Runs kube-netlens from this checkout of its repository, building it first when dist/ is missing (a fresh clone, as
# the GitHub Action and the pre-commit hook get): npm ci and the esbuild bundle, once. Needs Node 20 or newer and npm.
#   scripts/ci/kube-netlens.sh install        only install/build
#   scripts/ci/kube-netlens.sh ARGS...        kube-netlens ARGS...
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ ! -f "$here/dist/cli.js" ]; then
  echo "kube-netlens: building the CLI in $here (first run)" >&2
  (cd "$here" && npm ci --no-audit --no-fund --ignore-scripts >&2 && node scripts/build.mjs --production >&2)
fi
if [ "${1:-}" = install ]; then exit 0; fi
exec node "$here/dist/cli.js" "$@"
