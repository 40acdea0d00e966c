#!/usr/bin/env bash
# Benchmarks flowc: median wall time and peak memory per flow size and target.
#
#   bench/run.sh            sizes 100, 1000, 10000, 100000, and 10000 with v2 objects;
#                           writes bench/RESULTS.md
#   bench/run.sh --smoke    sizes 10 and 100, one quick pass, prints the tables (CI)
#
# Builds a Release binary in build-release/, generates flows with
# bench/gen_flow.py (JobSet gets flows without foreach and schedule, which it
# cannot express), times each compile with hyperfine (process start included,
# output to a file; 30 runs for the sample and 100 steps, 10 at 1,000 and
# 10,000, 5 at 100,000: this VM's timings wander) and measures peak RSS with
# /usr/bin/time (median of 3 runs, 1 at 100,000). It then divides each
# target's time and memory at 100,000 steps by those at 10,000 (issue 15:
# 10x the steps must cost at most 11x). Nothing here asserts a time: the
# numbers are reported, not tested.
set -euo pipefail
cd "$(dirname "$0")/.."

smoke=0
[ "${1:-}" = "--smoke" ] && smoke=1
if ((smoke)); then sizes=(10 100); runs=3; else sizes=(100 1000 10000 100000); runs=0; fi
targets=(ir argo airflow jobset)

# The smoke test only shows the script works: it reuses the test build.
build=build-release
((smoke)) && build=build
((smoke)) || cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target flowc >&2
flowc=$PWD/$build/flowc
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Median of the numbers on stdin.
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# measure FLOW TARGET N -> "median_ms peak_mb note"; a compile the target
# refuses (Argo holds at most 200 templates) is timed to its diagnostic.
measure() {
  local flow=$1 target=$2 n=$3
  local r=$runs
  if ((r == 0)); then r=$(( n >= 100000 ? 5 : n >= 1000 ? 10 : 30 )); fi
  local warmup=1 mem_runs=$(( n >= 100000 ? 1 : 3 ))
  local note=""
  if ! "$flowc" compile "$flow" --target "$target" -o "$work/out" 2>"$work/err"; then
    note="refused: $(grep -o '\[E0[0-9]*\]' "$work/err" | sort -u | tr '\n' ' ')"
  fi
  hyperfine -N -i --style none --warmup "$warmup" --runs "$r" --export-json "$work/h.json" \
    "$flowc compile $flow --target $target -o $work/out" >/dev/null 2>&1
  local ms
  ms=$(/usr/bin/python3 -c "import json,sys; print('%.1f' % (json.load(open('$work/h.json'))['results'][0]['median']*1000))")
  local mem
  mem=$(for _ in $(seq "$mem_runs"); do /usr/bin/time -f "%M" "$flowc" compile "$flow" --target "$target" -o "$work/out" 2>&1 >/dev/null | tail -1 || true; done | median)
  echo "$ms $(awk "BEGIN {printf \"%.1f\", $mem/1024}") $note"
}

rows=()
declare -A ms_at mb_at  # by "steps target", for the growth table
for target in "${targets[@]}"; do
  read -r ms mb note < <(measure samples/gpu_finetune.flow "$target" 1)
  rows+=("| samples/gpu_finetune.flow | $target | $ms | $mb | $note |")
done
for n in "${sizes[@]}"; do
  /usr/bin/python3 bench/gen_flow.py "$n" > "$work/flow-$n.flow"
  /usr/bin/python3 bench/gen_flow.py "$n" --jobset > "$work/jobset-$n.flow"
  steps=$(grep -c '^  step ' "$work/flow-$n.flow")
  for target in "${targets[@]}"; do
    flow=$work/flow-$n.flow
    [ "$target" = jobset ] && flow=$work/jobset-$n.flow
    read -r ms mb note < <(measure "$flow" "$target" "$n")
    rows+=("| $steps steps | $target | $ms | $mb | $note |")
    ms_at["$n $target"]=$ms
    mb_at["$n $target"]=$mb
  done
done

# Language v2 (bench/gen_flow.py --v2): the same flows with @neuron claims and @trainjob
# gangs, at the size the goals name (10,000 steps; 100 for the smoke test).
v2=$(( smoke ? 100 : 10000 ))
/usr/bin/python3 bench/gen_flow.py "$v2" --v2 > "$work/v2-$v2.flow"
/usr/bin/python3 bench/gen_flow.py "$v2" --v2 --jobset > "$work/v2-jobset-$v2.flow"
steps=$(grep -c '^  step ' "$work/v2-$v2.flow")
for target in "${targets[@]}"; do
  flow=$work/v2-$v2.flow
  [ "$target" = jobset ] && flow=$work/v2-jobset-$v2.flow
  read -r ms mb note < <(measure "$flow" "$target" "$v2")
  rows+=("| $steps steps, v2 | $target | $ms | $mb | $note |")
done

table=$(printf '%s\n' "| flow | target | median wall time (ms) | peak RSS (MB) | note |" \
  "|---|---|---|---|---|" "${rows[@]}")
# Growth from 10,000 to 100,000 steps (from 10 to 100 in the smoke test).
small=$(( smoke ? 10 : 10000 )) large=$(( smoke ? 100 : 100000 ))
growth=("| target | time, ${large} / ${small} steps | memory, ${large} / ${small} steps |" "|---|---|---|")
for target in "${targets[@]}"; do
  growth+=("$(awk -v t="$target" -v a="${ms_at["$small $target"]}" -v b="${ms_at["$large $target"]}" \
    -v c="${mb_at["$small $target"]}" -v d="${mb_at["$large $target"]}" \
    'BEGIN {printf "| %s | %.1fx | %.1fx |", t, b / a, d / c}')")
done
growth_table=$(printf '%s\n' "${growth[@]}")
if ((smoke)); then
  echo "$table"
  echo
  echo "$growth_table"
  exit 0
fi

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
mem=$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)
{
  echo "# flowc benchmark results"
  echo
  echo "Produced by \`bench/run.sh\` in one run on $(date -u +%Y-%m-%d)."
  echo "Machine: $(nproc) cores ($cpu), $mem, $(. /etc/os-release; echo "$PRETTY_NAME"),"
  echo "$(g++ --version | head -1), Release build (-O3)."
  echo "Wall time is hyperfine's median over repeated runs, process start included and"
  echo "output written to a file; peak RSS is the median of three /usr/bin/time runs."
  echo
  echo "$table"
  echo
  echo "Growth from 10,000 to 100,000 steps (the rows above; argo's is to its refusal):"
  echo
  echo "$growth_table"
  echo
  if [ -f bench/PROFILE.md ]; then cat bench/PROFILE.md; fi
  # What @code adds (bench/code.sh writes it).
  if [ -f bench/CODE.md ]; then echo; cat bench/CODE.md; fi
} > bench/RESULTS.md
cat bench/RESULTS.md
