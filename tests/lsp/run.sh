#!/usr/bin/env bash
# Runs the language server's tests (tests/lsp/*.test.js) with Node's built-in test runner,
# against the flowc binary in $FLOWC (default build/flowc). Installs the pinned npm packages
# of package-lock.json first, with `npm ci`, when node_modules is missing or older than the
# lock file.
#
#   FLOWC=build/flowc tests/lsp/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export FLOWC=${FLOWC:-$here/../../build/flowc}
FLOWC=$(cd "$(dirname "$FLOWC")" && pwd)/$(basename "$FLOWC")
cd "$here"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
exec node --test protocol.test.js diagnostics.test.js features.test.js
