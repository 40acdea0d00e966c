#!/usr/bin/env bash
# What `flowc fmt` costs next to `flowc check` on the same flow (issue 24: fmt at most twice
# check's time): a flow of about STEPS steps from bench/gen_flow.py as generated (its decorators
# laid out by hand, so fmt has work to do) and formatted. Writes bench/FMT.md, the section
# bench/run.sh puts in bench/RESULTS.md; --smoke prints it only.
#
#   bench/fmt.sh [FLOWC [STEPS [--smoke]]]   default: a Release build in build-release/, 10000
#
# hyperfine times the commands in one run, alternating (process start included), 20 runs
# each after 3 warm-ups (3 runs, no warm-up, with --smoke). `fmt --check` formats, compares and
# writes nothing, like check, and exits 1 on the unformatted flow (hyperfine -i).
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

/usr/bin/python3 bench/gen_flow.py "$steps" > "$work/generated.flow"
"$flowc" fmt - < "$work/generated.flow" > "$work/formatted.flow"
runs=20 warmup=3
((smoke)) && runs=3 warmup=0
rows=()
for kind in generated formatted; do
  flow=$work/$kind.flow
  hyperfine -N -i --style none --warmup "$warmup" --runs "$runs" --export-json "$work/h.json" \
    "$flowc check $flow" "$flowc fmt --check $flow" >/dev/null 2>&1
  read -r check fmt cpu_check cpu_fmt < <(/usr/bin/python3 -c "
import json
r = json.load(open('$work/h.json'))['results']
print(' '.join(['%.1f' % (x['median'] * 1000) for x in r] +
               ['%.1f' % ((x['user'] + x['system']) * 1000) for x in r]))")
  ratio=$(awk "BEGIN {printf \"%.2f\", $fmt / $check}")
  bytes=$(stat -c %s "$flow")
  rows+=("| $kind ($bytes bytes) | $check | $fmt | **${ratio}x** | $cpu_check | $cpu_fmt |")
done
lines=$(grep -c '^  step ' "$work/generated.flow")

section=$(
  echo "## \`flowc fmt\` next to \`flowc check\`"
  echo
  echo "\`bench/fmt.sh\`: a flow of $lines steps from \`bench/gen_flow.py $steps\`, as generated"
  echo "and formatted. \`flowc fmt --check\` parses, lays out and compares, writing nothing;"
  echo "\`flowc check\` parses, builds the graph and lowers to the IR. Wall time: medians of"
  echo "$runs runs each, alternating (hyperfine), process start included; CPU time: user +"
  echo "system, mean of the same runs. $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "when the run ended."
  echo
  echo "| flow | check wall (ms) | fmt --check wall (ms) | fmt / check | check CPU (ms) | fmt CPU (ms) |"
  echo "|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
)
if ((smoke)); then
  echo "$section"
else
  echo "$section" > bench/FMT.md
  cat bench/FMT.md
fi
