#!/usr/bin/env bash
# Measures flowc's start-up against a static hello-world built by the same compiler with the
# same flags (issue 27, items 4 and 5).
#
#   bench/startup.sh [FLOWC]    FLOWC defaults to a Release build in build-release/
#
# Wall time: the hello-world and a sample compile (samples/gpu_finetune.flow, --target ir,
# output to a file) alternate in rounds of hyperfine runs, so that the VM's drift between two
# measurements minutes apart does not enter their ratio; prints both medians and the ratio.
# Instructions (callgrind, exact here): the paths an editor or a pre-commit hook runs besides a
# successful compile (--version, compile --help, a compile that meets a syntax error, a check
# with a type error), each against that compile. Nothing here asserts a time.
set -euo pipefail
cd "$(dirname "$0")/.."

flowc=${1:-}
if [ -z "$flowc" ]; then
  cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build-release -j"$(nproc)" --target flowc >&2
  flowc=$PWD/build-release/flowc
fi
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$(dirname "$flowc")/CMakeCache.txt" 2>/dev/null)
cxx=${cxx:-g++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The hello-world: C++, -O3 (CMake's Release flags) and -static, as flowc is linked.
cat > "$work/hello.cc" <<'EOF'
#include <cstdio>
int main() { std::puts("hello, world"); return 0; }
EOF
"$cxx" -O3 -DNDEBUG -static -o "$work/hello" "$work/hello.cc"

rounds=${FLOWC_STARTUP_ROUNDS:-10} runs=${FLOWC_STARTUP_RUNS:-20}
sample="$flowc compile samples/gpu_finetune.flow --target ir -o $work/out.json"
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
rm -f "$work/t-hello" "$work/t-flowc"
for _ in $(seq "$rounds"); do
  for side in hello flowc; do
    cmd="$work/hello"
    [ "$side" = flowc ] && cmd=$sample
    hyperfine -N --style none --warmup 3 --runs "$runs" --export-json "$work/h.json" "$cmd" \
      >/dev/null 2>&1
    /usr/bin/python3 -c "import json; print('\n'.join(str(t) for t in json.load(open('$work/h.json'))['results'][0]['times']))" >> "$work/t-$side"
  done
done
hello_ms=$(median < "$work/t-hello" | awk '{printf "%.2f", $1*1000}')
flowc_ms=$(median < "$work/t-flowc" | awk '{printf "%.2f", $1*1000}')
echo "| static hello-world (ms) | sample compile, ir (ms) | ratio |"
echo "|---|---|---|"
awk -v h="$hello_ms" -v f="$flowc_ms" 'BEGIN {printf "| %.2f | %.2f | %.2fx |\n", h, f, f / h}'
echo
echo "Medians of $((rounds * runs)) runs each, alternating in $rounds rounds of $runs (hyperfine -N)."

command -v valgrind >/dev/null || exit 0
instructions() {
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$flowc" "$@" \
    >/dev/null 2>&1 || true
  awk '/^summary:/ {print $2}' "$work/cg.out"
}
base=$(instructions compile samples/gpu_finetune.flow --target ir -o "$work/out.json")
echo
echo "| run | instructions (M) | against the sample compile |"
echo "|---|---|---|"
row() {
  local name=$1
  shift
  local n
  n=$(instructions "$@")
  awk -v name="$name" -v n="$n" -v b="$base" \
    'BEGIN {printf "| %s | %.2f | %.2fx |\n", name, n / 1e6, n / b}'
}
row '`compile samples/gpu_finetune.flow --target ir`' compile samples/gpu_finetune.flow \
  --target ir -o "$work/out.json"
row '`--version`' --version
row '`compile --help`' compile --help
row 'a compile meeting a syntax error (tests/errors/syntax_missing_comma.flow)' compile \
  tests/errors/syntax_missing_comma.flow --target argo
row 'a check meeting a type error (tests/errors/param_type_mismatch.flow)' check \
  tests/errors/param_type_mismatch.flow
row 'a compile with an unknown option' compile --frobnicate
