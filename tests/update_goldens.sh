#!/usr/bin/env bash
# Rewrites every golden file (IR, targets, diagnostics, editor scopes) and the generated
# reference pages (docs/decorators.md, docs/diagnostics.md: `flowc docs -o docs`) from the
# current compiler. Review the result with `git diff tests/ docs/` before committing.
#
#   tests/update_goldens.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake --build "$build" -j"$(nproc)" --target flowc >&2
export FLOWC="$PWD/$build/flowc" FLOWC_SOURCE_DIR="$PWD" FLOWC_UPDATE_GOLDENS=1
# The pages made from the decorator table and codes.def (tests/py/test_explain.py compares).
"$FLOWC" docs -o docs
for test in tests/py/test_*.py; do
  /usr/bin/python3 "$test" >/dev/null || true
done
# The VS Code grammar's token scopes of every sample (editors/vscode/test/golden).
if [ -d editors/vscode/node_modules ]; then
  (cd editors/vscode && node --test test/grammar.test.js >/dev/null) || true
fi
git status --short tests/ editors/ docs/ | head -50
