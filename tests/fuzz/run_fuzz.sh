#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build-fuzz/ and runs
# them for SECONDS in all (default 60), a quarter each: flowc_fuzz over tests/fuzz/corpus,
# seeded with every sample, test flow and error case; flowc_fuzz_lsp (byte streams a
# client writes to `flowc lsp`) over tests/fuzz/lsp_corpus; flowc_fuzz_cel (CEL rules, as a
# --schemas CRD brings them to `flowc validate`) over tests/fuzz/cel_corpus; flowc_fuzz_validate
# (YAML streams for `flowc validate`) over tests/fuzz/validate_corpus, seeded with
# tests/validate's cases and some YAML goldens. Exits non-zero on any crash.
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
cmake --build build-fuzz -j"$(nproc)" --target flowc_fuzz flowc_fuzz_lsp flowc_fuzz_cel \
  flowc_fuzz_validate >&2

half=$(( (seconds + 3) / 4 ))
work=$(mktemp -d)
lsp_work=$(mktemp -d)
cel_work=$(mktemp -d)
validate_work=$(mktemp -d)
trap 'rm -rf "$work" "$lsp_work" "$cel_work" "$validate_work"' EXIT
# The flow target's seeds: the corpus, every sample, test flow and error case (some 1,400).
# The sanitizer build is unoptimised (CMakeLists.txt says why), where each of them takes about
# 0.2 s to replay, and libFuzzer replays every seed before its time limit counts: 5 minutes. So
# a run replays a sample of 100, drawn afresh each run from FLOWC_FUZZ_SAMPLE (printed, to
# repeat a run) or the clock; FLOWC_FUZZ_SAMPLE=all, and --update-corpus, replay them all.
# The other targets' seeds replay in seconds, all of them.
seeds=(tests/fuzz/corpus/* samples/*.flow tests/errors/*.flow tests/flows/*.flow)
sample=${FLOWC_FUZZ_SAMPLE:-$(date +%s)}
((update)) && sample=all
if [ "$sample" = all ]; then
  cp "${seeds[@]}" "$work"/
else
  echo "run_fuzz: flowc_fuzz replays 100 of ${#seeds[@]} seeds (FLOWC_FUZZ_SAMPLE=$sample)" >&2
  printf '%s\n' "${seeds[@]}" | shuf -n 100 --random-source=<(yes "$sample") |
    xargs -d '\n' cp -t "$work"/
fi

# -max_len keeps inputs flow-sized; -timeout flags pathological slowness.
./build-fuzz/tests/flowc_fuzz "$work" -max_total_time="$half" -max_len=8192 -timeout=10 \
  -print_final_stats=1 -dict=tests/fuzz/flow.dict -artifact_prefix=build-fuzz/ 2>&1 | tail -n 25

cp tests/fuzz/lsp_corpus/* "$lsp_work"/
./build-fuzz/tests/flowc_fuzz_lsp "$lsp_work" -max_total_time="$half" -max_len=16384 -timeout=10 \
  -print_final_stats=1 -dict=tests/fuzz/lsp.dict -artifact_prefix=build-fuzz/lsp- 2>&1 | tail -n 25

cp tests/fuzz/cel_corpus/* "$cel_work"/
./build-fuzz/tests/flowc_fuzz_cel "$cel_work" -max_total_time="$half" -max_len=4096 -timeout=10 \
  -print_final_stats=1 -dict=tests/fuzz/cel.dict -artifact_prefix=build-fuzz/cel- 2>&1 | tail -n 25

cp tests/fuzz/validate_corpus/* "$validate_work"/
cp tests/validate/*.yaml "$validate_work"/
./build-fuzz/tests/flowc_fuzz_validate "$validate_work" -max_total_time="$half" -max_len=16384 \
  -timeout=10 -print_final_stats=1 -dict=tests/fuzz/validate.dict \
  -artifact_prefix=build-fuzz/validate- 2>&1 | tail -n 25

if ((update)); then
  ./build-fuzz/tests/flowc_fuzz -merge=1 -max_len=8192 tests/fuzz/corpus "$work" 2>&1 | tail -n 2
  ./build-fuzz/tests/flowc_fuzz_lsp -merge=1 -max_len=16384 tests/fuzz/lsp_corpus "$lsp_work" 2>&1 | tail -n 2
  ./build-fuzz/tests/flowc_fuzz_validate -merge=1 -max_len=16384 tests/fuzz/validate_corpus \
    "$validate_work" 2>&1 | tail -n 2
  ./build-fuzz/tests/flowc_fuzz_cel -merge=1 -max_len=4096 tests/fuzz/cel_corpus "$cel_work" 2>&1 | tail -n 2
fi
