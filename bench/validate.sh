#!/usr/bin/env bash
# What `flowc validate` costs (issue 32): one call on the YAML every sample compiles to (Argo
# for 4.1, JobSet where the sample fits it), against the team's conformance kit
# (../shared/conformance/validate) on the same files where the kit is present (target: at least
# 5x faster); and one call on a JobSet of about STEPS steps from bench/gen_flow.py --jobset
# (target: within 1 s), beside yaml-cpp's event parser alone on that file (bench/yaml_scan.cc),
# the floor under any reader built on it. Writes the measured part of bench/VALIDATE.md (above
# its "## Where the time goes" notes, which are kept); --smoke prints it only.
#
#   bench/validate.sh [FLOWC [STEPS [--smoke]]]   default: a Release build in build-release/, 10000
#
# hyperfine times each command (process start included), 10 runs after 2 warm-ups (3 runs, no
# warm-up, with --smoke). The kit keeps its translated schemas in a cache between calls
# (its README, "Caching"); the warm-ups fill it, so the kit is timed at its fastest.
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
kit=../shared/conformance/validate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

files=()
for flow in samples/*.flow; do
  name=$(basename "$flow" .flow)
  for target in argo jobset; do
    if "$flowc" compile "$flow" --target "$target" -o "$work/$name.$target.yaml" 2>/dev/null; then
      files+=("$work/$name.$target.yaml")
    fi
  done
done
/usr/bin/python3 bench/gen_flow.py "$steps" --jobset > "$work/big.flow"
"$flowc" compile "$work/big.flow" --target jobset -o "$work/big.yaml"
docs=$(cat "${files[@]}" | grep -c '^kind:' || true)
bytes=$(cat "${files[@]}" | wc -c)
big_bytes=$(wc -c < "$work/big.yaml")
big_jobs=$(grep -c '^    - name:' "$work/big.yaml" || true)

runs=10 warmup=2
((smoke)) && runs=3 warmup=0
median() {  # hyperfine's median and CPU time (user + system), in ms
  /usr/bin/python3 -c "
import json
r = json.load(open('$work/h.json'))['results'][$1]
print('%.1f %.1f' % (r['median'] * 1000, (r['user'] + r['system']) * 1000))"
}
# The machine is shared: the load average (1, 5, 15 minutes) around the timings goes in the report.
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
"$flowc" validate "${files[@]}" >/dev/null
cmds=("$flowc validate ${files[*]}")
have_kit=0
if [ -x "$kit" ] || [ -f "$kit" ]; then
  have_kit=1
  cmds+=("/usr/bin/python3 $kit ${files[*]}")
fi
hyperfine -N --style none --warmup "$warmup" --runs "$runs" --export-json "$work/h.json" \
  "${cmds[@]}" >/dev/null 2>&1
read -r flowc_ms flowc_cpu < <(median 0)
kit_line="(../shared/conformance absent: not measured)"
if ((have_kit)); then
  read -r kit_ms kit_cpu < <(median 1)
  ratio=$(/usr/bin/python3 -c "print('%.1f' % ($kit_ms / $flowc_ms))")
  kit_line="$kit_ms ms (CPU $kit_cpu ms): flowc is ${ratio}x faster"
fi
"$flowc" validate "$work/big.yaml" >/dev/null
hyperfine -N --style none --warmup "$warmup" --runs "$runs" --export-json "$work/h.json" \
  "$flowc validate $work/big.yaml" >/dev/null 2>&1
read -r big_ms big_cpu < <(median 0)
c++ -O2 -o "$work/yaml_scan" bench/yaml_scan.cc -lyaml-cpp
hyperfine -N --style none --warmup "$warmup" --runs "$runs" --export-json "$work/h.json" \
  "$work/yaml_scan $work/big.yaml" >/dev/null 2>&1
read -r scan_ms scan_cpu < <(median 0)
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
peak_kb=$( { /usr/bin/time -f '%M' "$flowc" validate "$work/big.yaml" >/dev/null; } 2>&1 | tail -1)

report=$(cat <<MD
# flowc validate: speed

Measured by bench/validate.sh (hyperfine, median of $runs runs, process start included) on
$(nproc) cores, $(date -u +%Y-%m-%d); load average $load_start before the timings,
$load_end after (other processes share the machine: CPU time is user + system).

| what | flowc validate | conformance kit |
|---|---|---|
| the samples' outputs: ${#files[@]} files, $docs documents, $bytes bytes, one call | $flowc_ms ms (CPU $flowc_cpu ms) | $kit_line |
| a JobSet of $big_jobs replicated jobs (gen_flow.py $steps --jobset), $big_bytes bytes | $big_ms ms (CPU $big_cpu ms), peak RSS $peak_kb KB | |
| the same JobSet through yaml-cpp's event parser alone (bench/yaml_scan.cc) | $scan_ms ms (CPU $scan_cpu ms) | |

Targets (issue 32): at least 5x faster than the kit on the samples' outputs; the big JobSet
within 1 s.
MD
)
if ((smoke)); then
  echo "$report"
else
  notes=$(sed -n '/^## Where the time goes/,$p' bench/VALIDATE.md)
  printf '%s\n\n%s\n' "$report" "$notes" > bench/VALIDATE.md
  echo "$report"
fi
