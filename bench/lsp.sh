#!/usr/bin/env bash
# Benchmarks `flowc lsp` (bench/lsp_bench.js): the time from a change of a 2,000-step
# document to its diagnostics, the server's RSS over 10,000 changes, and one process holding
# every sample and a large flow. Prints one JSON line; bench/LSP.md (part of RESULTS.md) quotes it. Nothing is
# asserted.
#
#   bench/lsp.sh [BUILD_DIR]     (default build-release, a Release build made here)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target flowc >&2
(cd tests/lsp && { [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; } ||
  npm ci --no-audit --no-fund --loglevel=error >&2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_flow.py 2000 > "$work/big.flow"
python3 bench/gen_flow.py 10000 > "$work/huge.flow"
node bench/lsp_bench.js "$PWD/$build/flowc" "$work/big.flow" samples/nightly_train.flow \
  samples/*.flow "$work/huge.flow"
