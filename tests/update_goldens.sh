#!/usr/bin/env bash
# Rewrites every golden file (IR, targets, diagnostics) from the current
# compiler. Review the result with `git diff tests/` before committing.
#
#   tests/update_goldens.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake --build "$build" -j"$(nproc)" --target flowc >&2
export FLOWC="$PWD/$build/flowc" FLOWC_SOURCE_DIR="$PWD" FLOWC_UPDATE_GOLDENS=1
for test in tests/py/test_*.py; do
  /usr/bin/python3 "$test" >/dev/null || true
done
git status --short tests/ | head -50
