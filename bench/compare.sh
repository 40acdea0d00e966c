#!/usr/bin/env bash
# Compares two flowc binaries on the same machine at the same time: a sample flow on every
# target, and 10,000 steps on the targets that accept them (and `flowc check`), by median wall
# time (hyperfine, process start included) and instruction count (callgrind, 2,000 steps).
#
#   bench/compare.sh OLD_FLOWC NEW_FLOWC
#
# Prints a Markdown table. Used for the before/after figures in bench/RESULTS.md; nothing
# here asserts a time.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 bench/gen_flow.py 10000 > "$work/flow.flow"
/usr/bin/python3 bench/gen_flow.py 10000 --jobset > "$work/jobset.flow"
/usr/bin/python3 bench/gen_flow.py 2000 > "$work/flow-2k.flow"
/usr/bin/python3 bench/gen_flow.py 2000 --jobset > "$work/jobset-2k.flow"

# median_ms FLOWC RUNS ARGS... -> median wall time in ms
median_ms() {
  local flowc=$1 runs=$2
  shift 2
  hyperfine -N -i --style none --warmup 2 --runs "$runs" --export-json "$work/h.json" \
    "$flowc $*" >/dev/null 2>&1
  /usr/bin/python3 -c "import json; print('%.1f' % (json.load(open('$work/h.json'))['results'][0]['median']*1000))"
}

# instructions FLOWC ARGS... -> instructions executed, in millions
instructions() {
  local flowc=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$flowc" "$@" >/dev/null 2>&1 || true
  awk '/^summary:/ {printf "%.1f", $2/1e6}' "$work/cg.out"
}

echo "| run | before (ms) | after (ms) | before (M instr.) | after (M instr.) |"
echo "|---|---|---|---|---|"
for target in ir argo airflow jobset; do
  args="compile samples/gpu_finetune.flow --target $target -o $work/out"
  echo "| sample, $target | $(median_ms "$old" 30 $args) | $(median_ms "$new" 30 $args) |" \
       "$(instructions "$old" $args) | $(instructions "$new" $args) |"
done
for target in check ir airflow jobset; do
  flow=$work/flow.flow small=$work/flow-2k.flow
  if [ "$target" = jobset ] || [ "$target" = check ]; then
    flow=$work/jobset.flow small=$work/jobset-2k.flow
  fi
  if [ "$target" = check ]; then
    args="check $flow" small_args="check $small"
  else
    args="compile $flow --target $target -o $work/out"
    small_args="compile $small --target $target -o $work/out"
  fi
  echo "| 10,000 steps, $target (instructions: 2,000) | $(median_ms "$old" 5 $args) |" \
       "$(median_ms "$new" 5 $args) | $(instructions "$old" $small_args) |" \
       "$(instructions "$new" $small_args) |"
done
