#!/usr/bin/env bash
# What `flowc diff` costs (issue 40; target: two 10,000-step flows that differ in one step diff
# within 1 s). Two flows of exactly STEPS steps from bench/gen_flow.py --v2 --exact (every kind
# of step, DRA claims and TrainJobs among them), the second with one step's image changed; and,
# beside them, `flowc check` of one flow, which parses and lowers once: a diff does that twice,
# then compares. Writes bench/DIFF.md; --smoke prints it only.
#
#   bench/diff.sh [FLOWC [STEPS [--smoke]]]   default: a Release build in build-release/, 10000
#
# hyperfine times each command (process start included), 10 runs after 2 warm-ups (3 runs, no
# warm-up, with --smoke).
set -euo pipefail
cd "$(dirname "$0")/.."

flowc=${1:-}
steps=${2:-10000}
smoke=0
[ "${3:-}" = "--smoke" ] && smoke=1
if [ -z "$flowc" ]; then
  cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build-release -j"$(nproc)" --target flowc >&2
  flowc=$PWD/build-release/flowc
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 bench/gen_flow.py "$steps" --v2 --exact > "$work/old.flow"
# One step changed: the first plain step's command gains an argument.
python3 - "$work/old.flow" "$work/new.flow" <<'PY'
import sys
text = open(sys.argv[1]).read()
old = 'run "python prep.py --epochs {{epochs}} --run {{run_id}}"'
at = text.index(old)
open(sys.argv[2], "w").write(text[:at] + old[:-1] + ' --fast"' + text[at + len(old):])
PY
status=0
"$flowc" diff "$work/old.flow" "$work/new.flow" > "$work/report.txt" || status=$?
[ "$status" = 1 ] || { echo "bench/diff.sh: flowc diff exited $status" >&2; exit 1; }
changes=$(tail -n 1 "$work/report.txt")

runs=(--runs 10 --warmup 2)
((smoke)) && runs=(--runs 3)
hyperfine "${runs[@]}" --export-json "$work/times.json" -i \
  -n "flowc check (one flow)" "$flowc check $work/old.flow" \
  -n "flowc diff (two flows, one step differs)" "$flowc diff $work/old.flow $work/new.flow" \
  -n "flowc diff --format json" "$flowc diff --format json $work/old.flow $work/new.flow" \
  -n "flowc diff --target argo" "$flowc diff --target argo $work/old.flow $work/new.flow" \
  >&2

report=$(python3 - "$work/times.json" "$steps" "$changes" "$(uname -m)" "$(nproc)" <<'PY'
import json, sys
times, steps, changes, machine, cpus = sys.argv[1:]
results = json.load(open(times))["results"]
print("# flowc diff: what it costs (bench/diff.sh)\n")
print(f"Two flows of {int(steps):,} steps (bench/gen_flow.py --v2 --exact) differing in one "
      f"step's command; the report says `{changes}`. hyperfine, mean ± σ over "
      f"{len(results[0]['times'])} runs, process start included, on {cpus} {machine} CPUs "
      "shared with other builds (the machine's load varies: compare the rows, not the runs).\n")
print("The CPU time (user + system) is the column to read on a loaded machine: the wall time "
      "there waits for the other builds.\n")
print("| command | wall, mean | σ | min | CPU, mean |\n|---|---|---|---|---|")
for r in results:
    print(f"| {r['command']} | {r['mean']*1000:.0f} ms | {r['stddev']*1000:.0f} ms | "
          f"{r['min']*1000:.0f} ms | {(r['user'] + r['system'])*1000:.0f} ms |")
PY
)
if ((smoke)); then
  echo "$report"
else
  echo "$report" > bench/DIFF.md
  echo "$report"
fi
