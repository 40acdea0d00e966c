#!/usr/bin/env python3
"""Measures flows over Argo's limits (issue 33): how each is split, and what compiling it costs.

    bench/argo_split.py [--flowc build-release/flowc] [--runs 11] [--sizes 201 250 ...]

For bench/gen_flow.py --exact's flows of 201, 250, 1,000, 10,000 and 100,000 steps it prints, as
Markdown: the WorkflowTemplates (the main one and its parts), templates and parts of the Argo
output, its largest DAG and WorkflowTemplate, and its bytes; for flows up to 10,000 steps, the
Workflow objects one run makes on the tests' model of Argo (tests/py/argo_model.py) and the
largest one's bytes (spec, storedWorkflowTemplateSpec, storedTemplates and nodes); then, for each flow, `--target argo` against
`--target ir`: the median wall time and CPU time (user + system) of `--runs` compiles to a
file, and their peak RSS (the median of the runs' maximum resident set size), all from
/usr/bin/time.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "py"))
import argo_model  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = (201, 250, 1000, 10000, 100000)


def compile_once(flowc, flow, target, out):
    """(wall s, CPU s, peak RSS MB) of one compile, as /usr/bin/time reports them (a child's
    maxrss from wait4 would count this process's pages from before the exec)."""
    report = out + ".time"
    result = subprocess.run(["/usr/bin/time", "-o", report, "-f", "%e %U %S %M", flowc,
                             "compile", flow, "--target", target, "-o", out],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"{flow} --target {target} failed: {result.stderr}")
    with open(report, encoding="utf-8") as f:
        wall, user, system, rss = f.read().split()[-4:]
    return float(wall), float(user) + float(system), int(rss) / 1024


def shape(path):
    """(WorkflowTemplates, templates, nested DAGs, largest DAG, largest WorkflowTemplate bytes)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    docs = list(yaml.load_all(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    texts = text.split("\n---\n")
    workflows = [i for i, d in enumerate(docs) if d["kind"] == "WorkflowTemplate"]
    templates = [t for i in workflows for t in docs[i]["spec"]["templates"]]
    nested = len(workflows) - 1
    largest_dag = max(len(t["dag"]["tasks"]) for t in templates if "dag" in t)
    largest = max(len(texts[i].encode()) for i in workflows)
    return (len(workflows), len(templates), nested, largest_dag, largest, len(text.encode())), docs


def largest_workflow(docs):
    """(Workflow objects of one run on the model, the largest one's bytes)."""
    params = {}
    for d in docs:
        if d.get("kind") == "WorkflowTemplate" and "-part-" not in d["metadata"]["name"]:
            for p in d["spec"].get("arguments", {}).get("parameters", []):
                params[p["name"]] = p["value"]
    run = argo_model.run_all(docs, 4, params, name="bench-x7k2p")
    return len(run.workflows), max(w["bytes"] for w in run.workflows)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--flowc", default=os.path.join(HERE, "..", "build-release", "flowc"))
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="flowc-argo-split-bench-")
    flows = {}
    for n in args.sizes:
        path = os.path.join(work, f"bench_{n}.flow")
        with open(path, "w", encoding="utf-8") as f:
            subprocess.run([sys.executable, os.path.join(HERE, "gen_flow.py"), str(n), "--exact"],
                           stdout=f,
                           check=True)
        flows[n] = path
    print("| flow | target | median wall (ms) | median CPU (ms) | peak RSS (MB) |")
    print("|---|---|---|---|---|")
    for n, path in flows.items():
        for target in ("ir", "argo"):
            out = os.path.join(work, "out." + target)
            compile_once(args.flowc, path, target, out)  # warm-up
            runs = [compile_once(args.flowc, path, target, out)
                    for _ in range(args.runs if n < 100000 else 3)]
            print(f"| gen_flow.py {n} | {target} | "
                  f"{statistics.median(r[0] for r in runs) * 1000:.1f} | "
                  f"{statistics.median(r[1] for r in runs) * 1000:.1f} | "
                  f"{statistics.median(r[2] for r in runs):.1f} |")
    print()
    print("| flow | steps | WorkflowTemplates | templates | parts | largest DAG (tasks) "
          "| largest WorkflowTemplate (bytes) | output (bytes) | Workflows of a run "
          "| largest Workflow (bytes) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n, path in flows.items():
        out = os.path.join(work, "out.yaml")
        compile_once(args.flowc, path, "argo", out)
        steps = sum(1 for line in open(path, encoding="utf-8") if line.lstrip().startswith("step "))
        counts, docs = shape(out)
        run = largest_workflow(docs) if n <= 10000 else ("-", "-")
        print(f"| gen_flow.py {n} | {steps} | " + " | ".join(f"{v:,}" for v in counts) + " | " +
              " | ".join(f"{v:,}" if isinstance(v, int) else v for v in run) + " |")


if __name__ == "__main__":
    main()
