"""End-to-end tests of `flowc compile FILE --target jobset` (issue 3).

For every sample, every test flow (tests/flows) and every JobSet case
(tests/golden/jobset/cases/*.flow, goldens beside them):
  - a flow JobSet can express compiles to its golden <name>.yaml,
    passes flowc validate, and reads back (python3-yaml, a
    YAML 1.1 reader like the API server's) to the IR's pod for every step,
    field for field, and to the IR's control block (order, dependsOn, nodes,
    timeout, retries);
  - a flow it cannot express exits 1, writes nothing to stdout, and prints
    exactly the golden diagnostics <name>.stderr.
Refresh the goldens with FLOWC_UPDATE_GOLDENS=1 (tests/update_goldens.sh).
"""
import copy
import glob
import json
import os
import re
import sys
import tempfile

import yaml_reader

import flowc_testlib as t
import pod_readers

GOLDEN_DIR = os.path.join("tests", "golden", "jobset")
CASES_DIR = os.path.join(GOLDEN_DIR, "cases")
# A reference as compiler/graph/templating.cc splits it; the IR JSON spells
# every one back as `{{name}}`.
REFERENCE = re.compile(r"\{\{ *([A-Za-z_][A-Za-z0-9_]*) *\}\}")


def cases():
    return sorted(os.path.relpath(p, t.SOURCE_DIR)
                  for p in glob.glob(os.path.join(t.SOURCE_DIR, CASES_DIR, "*.flow")))


def param_text(value):
    """A param default as a command sees it: strings bare, the rest as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def received_command(ir, command):
    """What the container receives for an IR command: each literal part as
    kubelet reads it (the IR escaped each one for kubelet), each `{{param}}`
    the default and `{{run_id}}` the JobSet's name, exactly as written."""
    values = {p["name"]: param_text(p["default"]) for p in ir["params"] if "default" in p}
    values["run_id"] = ir["k8s_name"]
    received = []
    for arg in command:
        parts = []
        last = 0
        for m in REFERENCE.finditer(arg):
            parts.append(pod_readers.kubelet(arg[last:m.start()]))
            parts.append(values[m.group(1)])
            last = m.end()
        parts.append(pod_readers.kubelet(arg[last:]))
        received.append("".join(parts))
    return received


def expected_pod(ir, step):
    """The IR's pod for `step`, its command as the container receives it."""
    pod = copy.deepcopy(step["pod"])
    for container in pod["spec"]["containers"]:
        if "command" in container:
            container["command"] = received_command(ir, container["command"])
    return pod


def read_back_pod(jobset, rjob, where, failures):
    """The pod of a replicated Job in the IR JSON pod shape (pod_readers.jobset_job_pod: the
    JobSet's namespace is the pod's, restartPolicy must be Never), its command what the
    container receives."""
    pod = pod_readers.jobset_job_pod(jobset, rjob, where, failures)
    if "containers" in pod["spec"]:
        pod["spec"]["containers"] = [
            dict(c, command=[pod_readers.kubelet(a) for a in c["command"]])
            if "command" in c else c for c in pod["spec"]["containers"]]
    return pod


def check_shape(ir, jobset, where, failures):
    """The JobSet around the pods: one replicated Job per step in IR order,
    dependsOn the predecessors, N indexed pods, timeout, retries, success."""
    def expect(what, expected, actual):
        if expected != actual:
            failures.append(f"{where}: {what}: expected {json.dumps(expected)}, "
                            f"got {json.dumps(actual)}")

    steps = ir["steps"]
    k8s = {s["name"]: s["k8s_name"] for s in steps}
    expect("apiVersion", "jobset.x-k8s.io/v1alpha2", jobset.get("apiVersion"))
    expect("kind", "JobSet", jobset.get("kind"))
    expect("metadata.name", ir["k8s_name"], jobset["metadata"].get("name"))
    spec = jobset["spec"]
    expect("spec.network", {"enableDNSHostnames": True}, spec.get("network"))
    expect("spec.successPolicy",
           {"operator": "All", "targetReplicatedJobs": [steps[-1]["k8s_name"]]},
           spec.get("successPolicy"))
    retries = {s["k8s_name"]: s.get("retry", {}).get("times", 0) for s in steps}
    most = max(retries.values())
    if most == 0:
        expect("spec.failurePolicy", None, spec.get("failurePolicy"))
    else:
        policy = {"maxRestarts": most}
        without = [name for name, times in retries.items() if times == 0]
        if without:
            policy["rules"] = [{"name": "stepsWithoutRetry", "action": "FailJobSet",
                                "targetReplicatedJobs": without}]
        expect("spec.failurePolicy", policy, spec.get("failurePolicy"))
    rjobs = spec["replicatedJobs"]
    expect("replicatedJobs names", [s["k8s_name"] for s in steps], [r["name"] for r in rjobs])
    for step, rjob in zip(steps, rjobs):
        at = f"replicatedJobs[{rjob['name']}]"
        expect(f"{at}.replicas", 1, rjob.get("replicas"))
        depends = [{"name": k8s[p], "status": "Complete"} for p in step["predecessors"]]
        expect(f"{at}.dependsOn", depends or None, rjob.get("dependsOn"))
        job = rjob["template"]["spec"]
        nodes = step.get("parallel", {}).get("nodes", 1)
        expect(f"{at}.completionMode", "Indexed", job.get("completionMode"))
        expect(f"{at}.parallelism", nodes, job.get("parallelism"))
        expect(f"{at}.completions", nodes, job.get("completions"))
        expect(f"{at}.backoffLimit", 0, job.get("backoffLimit"))
        expect(f"{at}.activeDeadlineSeconds", step.get("timeout_seconds"),
               job.get("activeDeadlineSeconds"))


def main():
    failures = []
    checked = 0
    written = []
    # Goldens sit in tests/golden/jobset/ for samples, in .../flows/ for test
    # flows, and beside their inputs in .../cases/ for the JobSet cases.
    flows = ([(p, GOLDEN_DIR) for p in t.samples()] +
             [(p, os.path.join(GOLDEN_DIR, "flows")) for p in t.test_flows()] +
             [(p, CASES_DIR) for p in cases()])
    with tempfile.TemporaryDirectory() as tmp:
        for path, golden_dir in flows:
            name = os.path.splitext(os.path.basename(path))[0]
            checked += 1
            result = t.run_flowc("compile", path, "--target", "jobset", "-o", "-")
            golden = os.path.join(golden_dir, name)
            if result.returncode == 1:
                # A flow JobSet cannot express: diagnostics only, no output.
                if result.stdout:
                    failures.append(f"{path}: failed but wrote to stdout")
                t.check_golden(golden + ".stderr", result.stderr, failures)
                if os.path.exists(os.path.join(t.SOURCE_DIR, golden + ".yaml")) and not t.UPDATE:
                    failures.append(f"{path}: no longer compiles, but {golden}.yaml exists")
                continue
            if result.returncode != 0:
                failures.append(f"{path}: exit status {result.returncode}:\n{result.stderr}")
                continue
            # Warnings (W004: no delay between JobSet restarts) are golden too.
            warnings = os.path.join(t.SOURCE_DIR, golden + ".warnings")
            if result.stderr or os.path.exists(warnings):
                t.check_golden(golden + ".warnings", result.stderr, failures)
            t.check_golden(golden + ".yaml", result.stdout, failures)
            if os.path.exists(os.path.join(t.SOURCE_DIR, golden + ".stderr")) and not t.UPDATE:
                failures.append(f"{path}: compiles now, but {golden}.stderr exists")
            out = os.path.join(tmp, f"{len(written)}-{name}.yaml")
            with open(out, "w", encoding="utf-8") as f:
                f.write(result.stdout)
            written.append(out)

            ir = t.ir_of(path)
            # The objects the pods need (claim templates, ConfigMaps) come first.
            documents, _ = pod_readers.delivered_objects(
                list(yaml_reader.load_all(result.stdout)), ir, path, failures)
            if len(documents) != 1:
                failures.append(f"{path}: {len(documents)} YAML documents, expected 1")
                continue
            jobset = documents[0]
            check_shape(ir, jobset, path, failures)
            rjobs = {r["name"]: r for r in jobset["spec"]["replicatedJobs"]}
            for step in ir["steps"]:
                where = f"{path}: step {step['name']}"
                rjob = rjobs.get(step["k8s_name"])
                if rjob is None:
                    failures.append(f"{where}: no replicated Job '{step['k8s_name']}'")
                    continue
                actual = read_back_pod(jobset, rjob, where, failures)
                failures.extend(t.diff_pods(expected_pod(ir, step), actual, where))

        if written:
            ok, output = t.validate(written)
            print(output, end="")
            if not ok:
                failures.append("validate failed:\n" + output)
    t.finish("test_jobset", failures, checked)


if __name__ == "__main__":
    main()
