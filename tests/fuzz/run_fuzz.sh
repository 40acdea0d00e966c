#!/usr/bin/env bash
# Builds the libFuzzer target with clang (ASan + UBSan) in build-fuzz/ and runs
# it for SECONDS (default 60) over tests/fuzz/corpus, seeded with every
# sample, test flow and error case. Exits non-zero on any crash.
#
#   tests/fuzz/run_fuzz.sh [SECONDS] [--update-corpus]
#
# --update-corpus merges what the run found into tests/fuzz/corpus, keeping
# only inputs that add coverage (libFuzzer's -merge=1).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
update=0
[ "${2:-}" = "--update-corpus" ] && update=1

CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOWC_FUZZ=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target flowc_fuzz >&2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp tests/fuzz/corpus/* samples/*.flow "$work"/ 2>/dev/null || true
cp tests/errors/*.flow tests/flows/*.flow "$work"/ 2>/dev/null || true

# -max_len keeps inputs flow-sized; -timeout flags pathological slowness.
./build-fuzz/tests/flowc_fuzz "$work" -max_total_time="$seconds" -max_len=8192 -timeout=10 \
  -print_final_stats=1 -dict=tests/fuzz/flow.dict -artifact_prefix=build-fuzz/ 2>&1 | tail -n 25

if ((update)); then
  ./build-fuzz/tests/flowc_fuzz -merge=1 -max_len=8192 tests/fuzz/corpus "$work" 2>&1 | tail -n 2
fi
