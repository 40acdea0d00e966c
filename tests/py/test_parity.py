"""Parity: one step, one pod, whatever the target (DESIGN.md, "The one invariant"; issue 6).

For every sample, every tests/flows/*.flow and the targets' own cases (tests/golden/*/cases),
compiles for ir, argo, airflow and jobset and reads each output back with the independent
readers of tests/py/pod_readers.py (python3-yaml for YAML; the Airflow DAG executed against
tests/py/airflow_stub), which normalise nothing but formatting. Then, for every target that
expresses the flow:
  - every step of the IR has its pods there (no step dropped, none made up), as many as the
    target runs: one on Argo and JobSet, one per task run on Airflow (foreach elements);
  - every pod equals the IR's pod for the step, field for field: the pods of @parallel steps
    inside the JobSets that Argo's resource templates and Airflow's tasks create included.
    Kueue's queue labels (@queue, the IR's step.queue.labels) are on the object Kueue admits
    and only there: a plain step's pod (then left out of its comparison), else the JobSet or
    TrainJob that owns the pod, whose pods must not have them.
    Where a target resolved a reference before the pod exists (Airflow's foreach elements,
    the JobSet target's param defaults and run id), the IR's pod gets the same text there,
    and commands are compared as the container receives them (kubelet's `$$`, `$(NAME)`).
A target that rejects a flow must do so properly: exit 1, nothing on stdout, and diagnostics
`FILE:LINE:COL: error: ... [Ennn]` (recorded as "not expressible"), never a crash.

A self-test breaks copies of real outputs (drops the Neuron toleration from Argo YAML, adds a
toleration to Airflow kwargs, ...) and checks the suite reports each break. A failure reads
`FLOW: step 'x': target 'airflow' [TASK] vs ir: pod.spec.tolerations[1].key: expected ..., got ...`.
"""
import glob
import json
import os
import re
import subprocess
import tempfile

import yaml
import yaml_reader

import flowc_testlib as t
import pod_readers as r

TARGETS = ("argo", "airflow", "jobset")
# The targets' own stress cases (tests/golden/<target>/cases/*.flow), compared too; unlike a
# sample or a test flow, such a case may be one that no target expresses.
CASES = ("tests/golden/argo/cases/*.flow", "tests/golden/jobset/cases/*.flow",
         "tests/golden/airflow/cases/*.flow")
NEURON_RESOURCE = "aws.amazon.com/neuron"
# A rejection: every error line is a located diagnostic with a code.
DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): "
                        r"(?P<severity>error|warning): .* \[(?P<code>[EW]\d{3})\]$")
CRASH_SIGNS = ("terminate called", "Segmentation fault", "Aborted", "internal error",
               "Traceback", "AddressSanitizer", "core dumped")


def cases():
    return sorted(os.path.relpath(p, t.SOURCE_DIR)
                  for pattern in CASES for p in glob.glob(os.path.join(t.SOURCE_DIR, pattern)))


def is_neuron(step):
    """Neuron devices from the device plugin (a limit) or the Neuron DRA driver (a claim)."""
    return bool(step["pod"]["spec"].get("resourceClaims")) or \
        any(NEURON_RESOURCE in (c.get("resources", {}).get("limits", {}))
            for c in step["pod"]["spec"]["containers"])


def rejection_problems(path, target, result):
    """Why a failed compile is not a proper rejection ([] if it is one)."""
    problems = []
    if result.returncode != 1:
        problems.append(f"exit status {result.returncode} (a diagnostic exits 1)")
    if result.stdout:
        problems.append(f"{len(result.stdout)} bytes on stdout")
    lines = result.stderr.splitlines()
    errors = [m for m in map(DIAGNOSTIC.match, lines) if m and m["severity"] == "error"]
    if not errors:
        problems.append("no `FILE:LINE:COL: error: ... [Ennn]` diagnostic")
    for m in errors:
        if m["file"] != path:
            problems.append(f"a diagnostic points at {m['file']}, not {path}")
    for sign in CRASH_SIGNS:
        if sign in result.stderr:
            problems.append(f"stderr says {sign!r}")
    if not problems:
        return []
    return [f"{path}: target '{target}' rejects the flow improperly: " + "; ".join(problems) +
            f"\n{result.stderr}"]


def codes(stderr):
    return sorted({m["code"] for m in map(DIAGNOSTIC.match, stderr.splitlines())
                   if m and m["severity"] == "error"})


KUEUE_PREFIX = "kueue.x-k8s.io/"


def kueue_labels(labels):
    return {k: v for k, v in (labels or {}).items() if k.startswith(KUEUE_PREFIX)}


def admission_problems(step, inst, where):
    """The step's queue labels (the IR's) on the object Kueue admits and only there: the pod
    of a plain step, else the JobSet or TrainJob that owns the pod. Returns (problems, the pod
    without the labels the target added to it by right)."""
    want = (step.get("queue") or {}).get("labels", {})
    pod = inst["pod"]
    on_pod = kueue_labels(pod.get("metadata", {}).get("labels"))
    if inst["admitted"] is not None:
        got = kueue_labels(inst["admitted"])
        if got != want:
            return [f"{where}: the object Kueue admits has the Kueue labels {got}, the IR's "
                    f"queue {want}"], pod  # labels on the pod itself show in the pod's diff
        return [], pod
    if on_pod != want:
        return [f"{where}: the pod, which Kueue admits itself, has the Kueue labels {on_pod}, "
                f"the IR's queue {want}"], pod
    if not on_pod:
        return [], pod
    pod = json.loads(json.dumps(pod))
    labels = pod["metadata"]["labels"]
    for key in on_pod:
        del labels[key]
    if not labels:
        del pod["metadata"]["labels"]
    if not pod["metadata"]:
        del pod["metadata"]
    return [], pod


def compare(path, ir, target, pods, params):
    """Diff lines between the IR and the pods a target's reader found. Returns (lines,
    steps compared, Neuron steps compared)."""
    lines = []
    steps = {s["name"]: s for s in ir["steps"]}
    for name in pods:
        if name not in steps:
            lines.append(f"{path}: target '{target}' has pods for step '{name}', which the "
                         f"IR does not have")
    compared = neuron = 0
    for name, step in steps.items():
        instances = pods.get(name, [])
        where = f"{path}: step '{name}': target '{target}'"
        if not instances:
            lines.append(f"{where}: missing (the IR has the step, the target runs no pod "
                         f"for it)")
            continue
        runs = r.airflow_expected_runs(ir, params, name) if target == "airflow" else 1
        if len(instances) != runs:
            lines.append(f"{where}: {len(instances)} pods, the flow runs it {runs} times: "
                         f"{[i['label'] for i in instances]}")
        for inst in instances:
            problems, pod = admission_problems(step, inst, f"{where} [{inst['label']}]")
            lines.extend(problems)
            if inst["bind"]:
                # Resolved references: commands as the container receives them.
                expected, actual = r.bound_pod(step["pod"], inst["bind"]), r.received_pod(pod)
            else:
                expected, actual = step["pod"], pod
            lines.extend(t.diff_pods(expected, actual, f"{where} [{inst['label']}] vs ir"))
        compared += 1
        neuron += is_neuron(step)
    return lines, compared, neuron


def read(target, text, ir, path, tmp):
    """{step: [Instance]} from a target's output text; reader problems become diff lines."""
    problems = []
    try:
        if target == "argo":
            pods = r.argo_pods(text, ir, problems, where=path)
        elif target == "jobset":
            pods = r.jobset_pods(text, ir, problems, where=path)
        else:
            dag = os.path.join(tmp, ir["flow"] + ".py")
            with open(dag, "w", encoding="utf-8") as f:
                f.write(text)
            pods = r.airflow_pods(dag, ir, problems, where=path)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError, yaml.YAMLError) as e:
        return {}, [f"{path}: target '{target}': cannot read the output back: "
                    f"{type(e).__name__}: {e}"]
    return pods, [f"{p} (target '{target}')" for p in problems]


def check(path, ir, target, text, params, tmp):
    """(failure lines, steps compared, Neuron steps compared) of one target's output."""
    pods, problems = read(target, text, ir, path, tmp)
    lines, compared, neuron = compare(path, ir, target, pods, params)
    if target in ("argo", "jobset", "airflow"):
        # The output delivers every object the IR has (checked by the reader: the stream's
        # documents, the objects the DAG's setup tasks create); every claim template a pod
        # names is one of them, or the cluster's own.
        delivered = {(o["kind"], o.get("namespace", ""), o["name"]) for o in ir.get("objects", [])}
        lines += r.claim_problems(ir, pods, delivered, f"{path}: target '{target}'")
    return problems + lines, compared, neuron


# --- the self-test: break copies of real outputs, expect the break to be reported ----------

def break_argo_toleration(text, step_k8s):
    docs = list(yaml_reader.load_all(text))
    for tpl in docs[0]["spec"]["templates"]:
        if tpl["name"] == step_k8s and "container" in tpl:
            tpl["tolerations"] = [x for x in tpl["tolerations"] if x["key"] != NEURON_RESOURCE]
            if not tpl["tolerations"]:
                del tpl["tolerations"]
            return yaml.safe_dump_all(docs, sort_keys=False, allow_unicode=True)
    raise AssertionError(f"no container template {step_k8s}")


def break_argo_manifest(text, step_k8s):
    docs = list(yaml_reader.load_all(text))
    for tpl in docs[0]["spec"]["templates"]:
        if tpl["name"] == step_k8s and "resource" in tpl:
            jobset = yaml_reader.load(tpl["resource"]["manifest"])
            spec = jobset["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]
            spec["containers"][0]["resources"]["limits"][NEURON_RESOURCE] = "1"
            tpl["resource"]["manifest"] = yaml.safe_dump(jobset, sort_keys=False)
            return yaml.safe_dump_all(docs, sort_keys=False, allow_unicode=True)
    raise AssertionError(f"no resource template {step_k8s}")


def break_airflow_kwargs(text, task_id):
    """Adds a toleration to the KubernetesPodOperator arguments of task `task_id`."""
    m = re.search(r'\n( +)task_id="' + re.escape(task_id) + '",\n', text)
    if not m:
        raise AssertionError(f"no task {task_id}")
    added = f'{m.group(1)}tolerations=[k8s.V1Toleration(key="injected", operator="Exists")],\n'
    return text[:m.end()] + added + text[m.end():]


def break_airflow_jobset(text):
    """Renames the Neuron toleration in the JobSet manifests the DAG's tasks create."""
    head, sep, tail = text.partition("FLOWC_GANGS = {")
    if not sep or "- key: aws.amazon.com/neuron\n" not in tail:
        raise AssertionError("no JobSet with a Neuron toleration")
    return head + sep + tail.replace("- key: aws.amazon.com/neuron\n",
                                     "- key: aws.amazon.com/neuron-x\n", 1)


def break_airflow_gang_labels(text):
    """Moves the Kueue labels of the `train` JobSet the DAG creates onto its pods."""
    head, sep, tail = text.partition('    "train": """\\\n')
    labels = ("  labels:\n    kueue.x-k8s.io/queue-name: ml-trainium\n"
              "    kueue.x-k8s.io/priority-class: train-high\n")
    template = "          template:\n            spec:\n"
    if not sep or labels not in tail or template not in tail:
        raise AssertionError("no labelled JobSet 'train'")
    pod_labels = ("          template:\n            metadata:\n              labels:\n"
                  "                kueue.x-k8s.io/queue-name: ml-trainium\n            spec:\n")
    return head + sep + tail.replace(labels, "", 1).replace(template, pod_labels, 1)


def break_airflow_claim(text):
    """Points the first pod-level claim of a KubernetesPodOperator at another template."""
    if '"resourceClaimTemplateName": "' not in text:
        raise AssertionError("no pod-level claim in the DAG")
    return text.replace('"resourceClaimTemplateName": "', '"resourceClaimTemplateName": "x-', 1)


def break_jobset_drop(text, step_k8s):
    doc = yaml_reader.load(text)
    doc["spec"]["replicatedJobs"] = [j for j in doc["spec"]["replicatedJobs"]
                                     if j["name"] != step_k8s]
    return yaml.safe_dump(doc, sort_keys=False)


def break_jobset_selector(text, step_k8s):
    doc = yaml_reader.load(text)
    for job in doc["spec"]["replicatedJobs"]:
        if job["name"] == step_k8s:
            spec = job["template"]["spec"]["template"]["spec"]
            spec.setdefault("nodeSelector", {})["injected"] = "yes"
    return yaml.safe_dump(doc, sort_keys=False)


def self_test(outputs, tmp):
    """Each break must be reported with the expected line. Returns (failures, checked)."""
    failures = []
    checked = 0
    k8s = {}
    for path, (ir, _) in outputs.items():
        k8s[path] = {s["name"]: s["k8s_name"] for s in ir["steps"]}

    def expect(what, path, target, broken, wanted):
        nonlocal checked
        checked += 1
        ir, texts = outputs[path]
        if target not in texts:
            failures.append(f"self-test {what}: {path} does not compile for {target}")
            return
        try:
            text = broken(texts[target])
        except (AssertionError, KeyError, yaml.YAMLError) as e:
            failures.append(f"self-test {what}: cannot break the output: {e}")
            return
        lines, _, _ = check(path, ir, target, text, r.airflow_param_values(ir), tmp)
        if not any(re.search(wanted, line) for line in lines):
            failures.append(f"self-test {what}: the break was not reported as /{wanted}/; "
                            f"reported: {lines}")

    everywhere = "tests/flows/neuron_everywhere.flow"
    gang = "tests/flows/neuron_gang.flow"
    expect("Argo: Neuron toleration dropped", everywhere, "argo",
           lambda x: break_argo_toleration(x, k8s[everywhere]["compile_trn"]),
           r"step 'compile_trn': target 'argo' \[template compile-trn\] vs ir: "
           r"pod\.spec\.tolerations: missing \(expected \[\{\"key\": \"aws\.amazon\.com/neuron\"")
    expect("Argo: JobSet manifest changed", everywhere, "argo",
           lambda x: break_argo_manifest(x, k8s[everywhere]["gang"]),
           r"step 'gang': target 'argo' \[.*JobSet manifest\] vs ir: "
           r"pod\.spec\.containers\[0\]\.resources\.limits\.aws\.amazon\.com/neuron: "
           r"expected \"16\", got \"1\"")
    expect("Airflow: toleration added to kwargs", everywhere, "airflow",
           lambda x: break_airflow_kwargs(x, "plain"),
           r"step 'plain': target 'airflow' \[plain\] vs ir: pod\.spec\.tolerations: "
           r"unexpected \[\{\"key\": \"injected\"")
    expect("Airflow: JobSet toleration renamed", everywhere, "airflow", break_airflow_jobset,
           r"step 'gang': target 'airflow' \[gang, JobSet\] vs ir: "
           r"pod\.spec\.tolerations\[0\]\.key: expected \"aws\.amazon\.com/neuron\", "
           r"got \"aws\.amazon\.com/neuron-x\"")
    expect("JobSet: step dropped", gang, "jobset",
           lambda x: break_jobset_drop(x, k8s[gang]["end"]),
           r"step 'end': target 'jobset': missing")
    expect("JobSet: node selector added", gang, "jobset",
           lambda x: break_jobset_selector(x, k8s[gang]["start"]),
           r"step 'start': target 'jobset' \[replicated Job start\] vs ir: "
           r"pod\.spec\.nodeSelector(\.injected)?: unexpected")

    dra = "samples/neuron_connected_devices.flow"
    expect("Argo: DRA claims dropped from a template", dra, "argo",
           lambda x: re.sub(r"\n      resourceClaims:\n(        .*\n)+", "\n", x, count=1),
           r"step 'evaluate': target 'argo' \[template evaluate\] vs ir: "
           r"pod\.spec\.resourceClaims: missing")
    expect("JobSet: claim template not delivered", dra, "jobset",
           lambda x: x.split("---\n", 1)[1],
           r"the IR's ResourceClaimTemplate eval-connected-neuron-[0-9a-f]{10} is not delivered")
    expect("JobSet: claim template changed", dra, "jobset",
           lambda x: x.replace("count: 4", "count: 2", 1),
           r"ResourceClaimTemplate eval-connected-neuron-[0-9a-f]{10} differs from the IR's")
    expect("Airflow: a pod's claim template renamed", dra, "airflow", break_airflow_claim,
           r"step 'evaluate': target 'airflow' \[evaluate\] vs ir: pod\.spec\.resourceClaims"
           r"\[0\]\.resourceClaimTemplateName: expected \"eval-connected-neuron-[0-9a-f]{10}\", "
           r"got \"x-eval")
    expect("Airflow: a claim template not created", dra, "airflow",
           lambda x: re.sub(r'objects=\["ResourceClaimTemplate/[^"]*"\]', "objects=[]", x, count=1),
           r"the objects the DAG creates: the IR's ResourceClaimTemplate "
           r"eval-connected-neuron-[0-9a-f]{10} is not delivered")

    expect("JobSet: an object's labels dropped", dra, "jobset",
           lambda x: re.sub(r"\n  labels:\n(    .*\n)+", "\n", x, count=1),
           r"ResourceClaimTemplate eval-connected-neuron-[0-9a-f]{10}: labels null, the IR's "
           r"\{\"app\.kubernetes\.io/managed-by\": \"flowc\"")

    shared = "samples/shared_cluster.flow"
    expect("Argo: a plain step's queue label dropped", shared, "argo",
           lambda x: x.replace("          kueue.x-k8s.io/queue-name: ml-cpu\n", "", 1),
           r"step 'start': target 'argo' \[template start\]: the pod, which Kueue admits "
           r"itself, has the Kueue labels \{\}")
    expect("Airflow: the gang's queue labels moved to its pods", shared, "airflow",
           break_airflow_gang_labels,
           r"step 'train': target 'airflow' \[train, JobSet\]: the object Kueue admits has the "
           r"Kueue labels \{\}")
    expect("Airflow: the TrainJob's priority changed", shared, "airflow",
           lambda x: x.replace("kueue.x-k8s.io/priority-class: train-high\n",
                               "kueue.x-k8s.io/priority-class: other\n", 1),
           r"step 'finetune': target 'airflow' \[finetune, TrainJob\]: the object Kueue admits "
           r"has the Kueue labels")

    trainjob = "samples/trainjob_neuron_gang.flow"
    expect("Airflow: a TrainJob's argument changed", trainjob, "airflow",
           lambda x: x.replace('      - conf/base.yaml\n', '      - conf/other.yaml\n', 1),
           r"step 'train': target 'airflow' \[train, TrainJob\] vs ir: "
           r"pod\.spec\.containers\[0\]\.command\[3\]: expected \"conf/base\.yaml\", "
           r"got \"conf/other\.yaml\"")
    expect("Airflow: a TrainJob's runtime not created", trainjob, "airflow",
           lambda x: re.sub(r'\n *"TrainingRuntime/[^"]*",', "", x, count=1),
           r"the Trainer cannot run the TrainJob")

    stress = "tests/flows/every_decorator.flow"
    expect("Argo: another param in a command", stress, "argo",
           lambda x: x.replace("echo start {{=sprig.replace('$', '$$', "
                               "workflow.parameters['tag'])}}",
                               "echo start {{=sprig.replace('$', '$$', "
                               "workflow.parameters['epochs'])}}", 1),
           r"step 'start': target 'argo' \[template start\] vs ir: "
           r"pod\.spec\.containers\[0\]\.command\[2\]: expected \"echo start \{\{tag\}\}")
    expect("Airflow: a reference outside a command", stress, "airflow",
           lambda x: x.replace('"note": "yes"', '"note": "{{ run_id }}"', 1),
           r"step 'start': target 'airflow' \[start\] vs ir: "
           r"pod\.metadata\.annotations\.note: expected \"yes\", got \"\\ue000run_id")

    # A crash, or a failure without a located, coded diagnostic, is no rejection.
    for what, result in (
            ("crash", subprocess.CompletedProcess([], -6, "", "terminate called after...\n")),
            ("exit 1 without a diagnostic", subprocess.CompletedProcess([], 1, "", "oops\n")),
            ("diagnostic and output", subprocess.CompletedProcess(
                [], 1, "x", "f.flow:1:1: error: no [E050]\n"))):
        checked += 1
        if not rejection_problems("f.flow", "argo", result):
            failures.append(f"self-test rejection ({what}): accepted as a proper rejection")
    checked += 1
    if rejection_problems("f.flow", "argo", subprocess.CompletedProcess(
            [], 1, "", "f.flow:3:8: error: cannot [E050]\n  step x {\n       ^\n")):
        failures.append("self-test rejection: a proper E050 was not accepted")
    return failures, checked


def main():
    failures = []
    checked = 0
    table = []
    neuron_total = 0
    neuron_steps = set()
    outputs = {}  # path -> (ir, {target: text}) for the self-test
    with tempfile.TemporaryDirectory(prefix="flowc-parity-") as tmp:
        flows = t.samples() + t.test_flows()
        for path in flows + cases():
            result = t.run_flowc("compile", path, "--target", "ir", "-o", "-")
            checked += 1
            if result.returncode != 0:
                failures.append(f"{path}: does not compile for ir:\n{result.stderr}")
                continue
            ir = json.loads(result.stdout)
            params = r.airflow_param_values(ir)
            row = {}
            texts = {}
            for target in TARGETS:
                checked += 1
                result = t.run_flowc("compile", path, "--target", target, "-o", "-")
                if result.returncode != 0:
                    bad = rejection_problems(path, target, result)
                    failures.extend(bad)
                    row[target] = ("CRASH " if bad else "not expressible ") + \
                        ",".join(codes(result.stderr))
                    continue
                texts[target] = result.stdout
                lines, compared, neuron = check(path, ir, target, result.stdout, params, tmp)
                if target == "argo":
                    # Before v4.1 the DRA claims travel in podSpecPatch: the same pods.
                    old = t.run_flowc("compile", path, "--target", "argo", "--argo-version",
                                      "3.7", "-o", "-").stdout
                    if old != result.stdout:
                        lines += [f"{line} (--argo-version 3.7)" for line in
                                  check(path, ir, target, old, params, tmp)[0]]
                if lines:
                    failures.append("\n".join(lines))
                row[target] = f"{compared}/{len(ir['steps'])} steps" + (
                    f" ({len(lines)} diffs)" if lines else "")
                neuron_total += neuron
                neuron_steps.update((path, s["name"]) for s in ir["steps"] if is_neuron(s))
            if not texts and path in flows:
                failures.append(f"{path}: no target expresses the flow")
            outputs[path] = (ir, texts)
            table.append((path, row))

        self_failures, self_checked = self_test(outputs, tmp)
        failures.extend(self_failures)
        checked += self_checked

    if neuron_total == 0:
        failures.append("no Neuron step was compared (the stress flows lost their Neuron steps?)")
    width = max(len(p) for p, _ in table) if table else 4
    print(f"{'flow':<{width}}  " + "  ".join(f"{tg:<26}" for tg in TARGETS))
    for path, row in table:
        print(f"{path:<{width}}  " + "  ".join(f"{row.get(tg, '-'):<26}" for tg in TARGETS))
    print(f"Neuron steps checked: {neuron_total} step x target comparisons "
          f"({len(neuron_steps)} distinct Neuron steps)")
    print(f"self-test: {self_checked - len(self_failures)} of {self_checked} breaks reported")
    t.finish("test_parity", failures, checked)


if __name__ == "__main__":
    main()
