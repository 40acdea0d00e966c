#!/usr/bin/env bash
# Benchmarks flowc: median wall time and peak memory per flow size and target.
#
#   bench/run.sh            sizes 100, 1000, 10000, 100000, and 10000 with v2 objects;
#                           writes bench/RESULTS.md
#   bench/run.sh --smoke    sizes 10 and 100, one quick pass, prints the tables (CI)
#
# It also runs bench/fmt.sh (flowc fmt next to flowc check at 10,000 steps; 100 in the smoke
# test), whose bench/FMT.md goes into bench/RESULTS.md; the smoke test also runs
# bench/validate.sh at 100 steps (bench/VALIDATE.md is written by a run of its own).
#
# Builds a Release binary in build-release/, generates flows with
# bench/gen_flow.py (JobSet gets flows without foreach and schedule, which it
# cannot express), times each compile with hyperfine (process start included,
# output to a file; 30 runs for the sample and 100 steps, 10 at 1,000 and
# 10,000, 5 at 100,000: this VM's timings wander) and measures peak RSS with
# /usr/bin/time (median of 3 runs, 1 at 100,000). It then measures two
# ratios paired, the two compiles alternating in rounds so that the VM's
# drift between rows minutes apart does not enter them: each target's time at
# 100,000 steps over its time at 10,000 (issue 15: 10x the steps must cost at
# most 11x), and what the v2 objects add at 10,000 steps (at most 10 %).
# Nothing here asserts a time: the numbers are reported, not tested.
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
# refuses is timed to its diagnostic. (Argo refused flows over 200 templates
# until issue 33; it now splits them: bench/argo_split.py.)
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

# paired FLOW_A FLOW_B TARGET RUNS_A RUNS_B -> "median_a_ms median_b_ms": the two compiles in
# alternating rounds (each round RUNS_A of A, then RUNS_B of B), so that the ratio of the two
# medians is not the VM's drift between two rows measured minutes apart.
paired() {
  local a=$1 b=$2 target=$3 runs_a=$4 runs_b=$5 rounds=$(( smoke ? 1 : 5 ))
  rm -f "$work/pa" "$work/pb"
  for _ in $(seq "$rounds"); do
    for side in a b; do
      local flow=$a r=$runs_a
      [ "$side" = b ] && flow=$b r=$runs_b
      hyperfine -N -i --style none --runs "$r" --export-json "$work/h.json" \
        "$flowc compile $flow --target $target -o $work/out" >/dev/null 2>&1
      /usr/bin/python3 -c "import json; print('\n'.join(str(t) for t in json.load(open('$work/h.json'))['results'][0]['times']))" >> "$work/p$side"
    done
  done
  echo "$(median < "$work/pa" | awk '{printf "%.1f", $1*1000}') $(median < "$work/pb" | awk '{printf "%.1f", $1*1000}')"
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
# Growth from 10,000 to 100,000 steps (from 10 to 100 in the smoke test): memory from the rows
# above, time measured paired (3 runs of the small flow, then 1 of the large, five times).
small=$(( smoke ? 10 : 10000 )) large=$(( smoke ? 100 : 100000 ))
growth=("| target | time, ${large} / ${small} steps (paired medians, ms) | memory, ${large} / ${small} steps |"
  "|---|---|---|")
for target in "${targets[@]}"; do
  kind=flow
  [ "$target" = jobset ] && kind=jobset
  read -r a b < <(paired "$work/$kind-$small.flow" "$work/$kind-$large.flow" "$target" 3 1)
  growth+=("$(awk -v t="$target" -v a="$a" -v b="$b" \
    -v c="${mb_at["$small $target"]}" -v d="${mb_at["$large $target"]}" \
    'BEGIN {printf "| %s | %.1fx (%.1f -> %.1f) | %.1fx |", t, b / a, a, b, d / c}')")
done
growth_table=$(printf '%s\n' "${growth[@]}")
# What v2 objects add, measured paired the same way (5 runs of each flow, five times).
added=("| target | without v2 (ms) | with v2 (ms) | added |" "|---|---|---|---|")
for target in "${targets[@]}"; do
  base=$work/flow-$v2.flow with=$work/v2-$v2.flow
  [ "$target" = jobset ] && base=$work/jobset-$v2.flow with=$work/v2-jobset-$v2.flow
  read -r a b < <(paired "$base" "$with" "$target" 5 5)
  added+=("$(awk -v t="$target" -v a="$a" -v b="$b" \
    'BEGIN {printf "| %s | %.1f | %.1f | %+.1f %% |", t, a, b, (b / a - 1) * 100}')")
done
added_table=$(printf '%s\n' "${added[@]}")
if ((smoke)); then
  echo "$table"
  echo
  echo "$growth_table"
  echo
  echo "$added_table"
  echo
  bench/fmt.sh "$flowc" 100 --smoke
  echo
  bench/validate.sh "$flowc" 100 --smoke
  exit 0
fi
# flowc fmt next to flowc check at 10,000 steps (bench/fmt.sh writes bench/FMT.md).
bench/fmt.sh "$flowc" 10000 >/dev/null

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
  echo "Growth from 10,000 to 100,000 steps (argo's is to its refusal). The rows above are measured"
  echo "one after another, minutes apart, and this VM's speed drifts in between; so time here is"
  echo "measured paired: 3 runs at 10,000 steps, then 1 at 100,000, five times over, and the"
  echo "medians of each divided. Memory is from the rows above."
  echo
  echo "$growth_table"
  echo
  echo 'What the v2 objects (`bench/gen_flow.py --v2`: @neuron claims, @trainjob gangs) add at'
  echo "$v2 steps, paired the same way: 5 runs without, then 5 with, five times over."
  echo
  echo "$added_table"
  echo
  if [ -f bench/PROFILE.md ]; then cat bench/PROFILE.md; fi
  if [ -f bench/FMT.md ]; then echo; cat bench/FMT.md; fi
  # Start-up against a static hello-world, and runs that stop early (bench/startup.sh --write).
  if [ -f bench/STARTUP.md ]; then echo; cat bench/STARTUP.md; fi
  # What @code adds (bench/code.sh writes it).
  if [ -f bench/CODE.md ]; then echo; cat bench/CODE.md; fi
  # The language server's latency and memory (bench/lsp.sh; its figures are quoted there).
  if [ -f bench/LSP.md ]; then echo; cat bench/LSP.md; fi
} > bench/RESULTS.md
cat bench/RESULTS.md
