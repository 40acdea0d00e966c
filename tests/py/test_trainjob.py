"""Kubeflow Trainer TrainJobs of @trainjob steps (issue 11; docs/trainjob.md).

For every samples/trainjob_*.flow, compiled for Argo 3.7 and 4.1:
  - the stream holds the IR's TrainingRuntime (tests/py/trainer_model.runtime_problems), and
    every @trainjob step's resource template creates a TrainJob; the TrainingRuntimes and the
    TrainJobs as Argo creates them (names substituted) pass flowc validate;
  - parity: the trainer's pod that Kubeflow Trainer v2.3 builds from the TrainJob and its
    runtime (trainer_model.trainer_pod: runtime template, runtime patches, `trainer` fields,
    torch policy) equals the IR's pod field by field, plus exactly the torch policy's PET_*
    env and port; and in the pods the JobSet controller makes from it for every node,
    FLOWC_JOBSET_NAME, FLOWC_NUM_NODES, FLOWC_NODE_INDEX and FLOWC_MAIN_ADDR read as the
    Trainer's own PET_* values and node 0's address (hostname.subdomain of index 0);
  - the runtime's name is `<flow>-<step>-<10 hex digits of SHA-256>` of its IR content;
  - Argo's success and failure conditions, evaluated as Argo does (label selectors over gjson
    paths, workflow/executor/resource.go), give the right answer for the TrainJob's status on
    every path: running, suspended by Kueue and resumed, complete, failed, past its deadline;
    with @queue the TrainJob (and the shared-cluster sample's JobSet) carries the step's Kueue
    labels, its pods none, and it is created suspended; a queued JobSet waits in Argo too.
A self-test breaks copies of the objects (container name, ancestor label, a patch, the
torch policy, a condition) and checks that each break is reported.
"""
import copy
import hashlib
import json
import os
import tempfile

import yaml
import yaml_reader

import flowc_testlib as t
import pod_readers
import trainer_model as m

TRAINJOB_NAME_WORKFLOW = "pretrain-x7k2p"
ITERATION_HASH = "{{=sprig.trunc(5, sprig.sha1sum(pod.name))}}"
FAILED = ",".join(f"status.conditions.{i}.type == Failed" for i in range(8))


def samples():
    """The TrainJob samples, the shared-cluster sample (a queued TrainJob, flowc's runtime)
    and a queued TrainJob with a referenced runtime."""
    return ([p for p in t.samples() if os.path.basename(p).startswith("trainjob_") or
             os.path.basename(p) == "shared_cluster.flow"] +
            [os.path.join("tests", "flows", "trainjob_queued.flow")])


def created_trainjob(manifest, gang=None):
    """The TrainJob as Argo creates it: named with the workflow's name and the attempt's
    hash substituted (or the name `gang` that the DAG around a bounded TrainJob hands it, its
    element's hash and attempt substituted), its other strings in flow spelling (references
    spelled `{{name}}`, pod_readers.argo_flow_spelling)."""
    trainjob = yaml_reader.load(manifest)
    name = trainjob["metadata"]["name"]
    if gang is not None:
        name = name.replace("{{inputs.parameters.gang}}", gang.replace(
            "{{=sprig.trunc(5, sprig.sha1sum(node.name))}}", "1a2b3").replace("{{retries}}", "0"))
    name = name.replace("{{workflow.name}}", TRAINJOB_NAME_WORKFLOW)
    trainjob = pod_readers.map_strings(trainjob, pod_readers.argo_flow_spelling)
    trainjob["metadata"]["name"] = name.replace(ITERATION_HASH, "1a2b3")
    return trainjob


def read_stream(text, ir, where, failures):
    """({step name: TrainJob as created}, [TrainingRuntime documents]) of an Argo stream."""
    docs = [d for d in yaml_reader.load_all(text) if isinstance(d, dict)]
    pod_readers.delivered_objects(docs, ir, where, failures)
    runtimes = [d for d in docs if d.get("kind") == "TrainingRuntime"]
    workflow = next(d for d in docs if d.get("kind") == "WorkflowTemplate")
    templates = {tpl["name"]: tpl for tpl in workflow["spec"]["templates"]}
    trainjobs = {}
    for step in ir["steps"]:
        if "trainjob" not in step:
            continue
        tpl = templates[step["k8s_name"]]
        gang = None
        if pod_readers.argo_bounded_gang(tpl, templates):
            gang = tpl["dag"]["tasks"][0]["arguments"]["parameters"][0]["value"]
        resource = (pod_readers.argo_bounded_gang(tpl, templates) or tpl).get("resource")
        if resource is None:
            failures.append(f"{where}: step {step['name']} has no resource template")
            continue
        trainjobs[step["name"]] = (created_trainjob(resource["manifest"], gang), resource)
    return trainjobs, runtimes


def expected_template(step, trainjob, count):
    """The trainer pod template the IR's pod asks for, with the torch policy's additions
    (trainer_model.torch_env, port 29400) and a Job pod's restartPolicy."""
    pod = copy.deepcopy(step["pod"])
    pod.get("metadata", {}).pop("namespace", None)
    if not pod.get("metadata", True):
        del pod["metadata"]
    pod["spec"] = {"restartPolicy": "Never", **pod["spec"]}
    node = pod["spec"]["containers"][0]
    node.setdefault("env", []).extend(
        m.torch_env(trainjob["metadata"]["name"], count, trainjob["spec"]["trainer"]))
    node.setdefault("ports", []).append({"containerPort": m.CONTAINER_TRAINER_PORT})
    return pod


def check_parity(step, trainjob, runtimes, where, failures):
    """The Trainer's pod of `trainjob` against the IR's, and the FLOWC_* env of every node."""
    try:
        template, count = m.trainer_pod(trainjob, runtimes)
    except m.ModelError as e:
        failures.append(f"{where}: {e}")
        return
    if count != step["parallel"]["nodes"]:
        failures.append(f"{where}: the Trainer runs {count} pods, the step {step['parallel']}")
    expected = expected_template(step, trainjob, count)
    if trainjob["spec"]["runtimeRef"]["kind"] == "ClusterTrainingRuntime":
        # The referenced runtime's own restart policy (docs/trainjob.md).
        expected["spec"].pop("restartPolicy")
    failures.extend(t.diff_pods(expected, template, f"{where} [Trainer's pod] vs ir"))
    name = trainjob["metadata"]["name"]
    for index in range(count):
        pod = m.jobset_pod(name, template, index)
        env = m.resolve_env(pod)
        node0 = f"{pod['spec']['hostname'].rsplit('-', 1)[0]}-0.{pod['spec']['subdomain']}"
        want = {"FLOWC_JOBSET_NAME": name, "FLOWC_NUM_NODES": env["PET_NNODES"],
                "FLOWC_NODE_INDEX": str(index), "FLOWC_MAIN_ADDR": env["PET_MASTER_ADDR"]}
        for var, value in want.items():
            if env.get(var) != value:
                failures.append(f"{where}: node {index}: {var} is {env.get(var)!r}, the "
                                f"Trainer's is {value!r}")
        if env["PET_MASTER_ADDR"] != node0:
            failures.append(f"{where}: PET_MASTER_ADDR {env['PET_MASTER_ADDR']} is not node 0, "
                            f"{node0}")


def check_runtime_name(ir, failures):
    """`<flow>-<step>-<10 hex>`: SHA-256 over the object's IR JSON without name and namespace
    (compiler/ir/trainjob.cc), so the same pod gives the same runtime on every compile."""
    for o in ir.get("objects", []):
        if o["kind"] != "TrainingRuntime":
            continue
        content = {"kind": o["kind"], "name": "", "trainingRuntime": o["trainingRuntime"]}
        digest = hashlib.sha256(json.dumps(content, separators=(",", ":"),
                                           ensure_ascii=False).encode()).hexdigest()[:10]
        steps = [s for s in ir["steps"] if s.get("trainjob", {}).get("runtime", {}).get(
            "name") == o["name"]]
        if len(steps) != 1 or o["name"] != f"{ir['k8s_name']}-{steps[0]['k8s_name']}-{digest}":
            failures.append(f"{ir['flow']}: TrainingRuntime {o['name']}: expected "
                            f"<flow>-<step>-{digest}, for {[s['name'] for s in steps]}")


# --- what Argo makes of the TrainJob's status -----------------------------------------------

def status(*conditions, succeeded=None):
    """A TrainJob status: conditions as (type, status, reason), the trainer job's count."""
    out = {"conditions": [{"type": c, "status": s, "reason": r, "message": "",
                           "lastTransitionTime": "2026-01-01T00:00:00Z"}
                          for c, s, r in conditions]}
    if succeeded is not None:
        out["jobsStatus"] = [{"name": "node", "ready": 0, "succeeded": succeeded, "failed": 0,
                              "active": 0, "suspended": 0}]
    return {"status": out} if conditions or succeeded is not None else {}


SUSPENDED = ("Suspended", "True", "Suspended")
RESUMED = ("Suspended", "False", "Resumed")  # trainjob_controller.go setSuspendedCondition
COMPLETE = ("Complete", "True", "AllJobsCompleted")
FAILED_JOBS = ("Failed", "True", "FailedJobs")
DEADLINE = ("Failed", "True", "DeadlineExceeded")

# (name, status, state for flowc's runtime, for a referenced runtime, for a referenced runtime
# and @queue). A referenced runtime's jobs are unknown, so only a condition's place can tell
# success: an unqueued TrainJob that Kueue suspended anyway has Suspended first, and Argo
# waits until @timeout fails it; a queued one is created suspended, so Suspended is always
# first and Complete second (trainjob_controller.go setSuspendedCondition).
SCENARIOS = [
    ("just created", status(), "waiting", "waiting", "waiting"),
    ("running", status(succeeded=0), "waiting", "waiting", "waiting"),
    ("suspended by Kueue", status(SUSPENDED, succeeded=0), "waiting", "waiting", "waiting"),
    ("resumed", status(RESUMED, succeeded=0), "waiting", "waiting", "waiting"),
    ("complete", status(COMPLETE, succeeded=1), "succeeded", "succeeded", "waiting"),
    ("resumed, then complete", status(RESUMED, COMPLETE, succeeded=1), "succeeded", "waiting",
     "succeeded"),
    ("failed", status(FAILED_JOBS, succeeded=0), "failed", "failed", "failed"),
    ("resumed, then failed", status(RESUMED, FAILED_JOBS, succeeded=0), "failed", "failed",
     "failed"),
    ("past its deadline", status(DEADLINE, succeeded=0), "failed", "failed", "failed"),
    ("resumed, past its deadline", status(RESUMED, DEADLINE), "failed", "failed", "failed"),
]


# A @parallel step's JobSet through Kueue, as the JobSet controller reports it
# (kubernetes-sigs/jobset pkg/constants: Suspended with reason SuspendedJobs, then False with
# ResumeJobs, kept in place; terminalState only once it has ended): (name, status, Argo's
# state).
def jobset_status(*conditions, terminal=None):
    out = {"conditions": [{"type": c, "status": st, "reason": r} for c, st, r in conditions]}
    if terminal:
        out["terminalState"] = terminal
    return {"status": out}


JOBSET_SCENARIOS = [
    ("queued (suspended)", jobset_status(("Suspended", "True", "SuspendedJobs")), "waiting"),
    ("admitted, running", jobset_status(("Suspended", "False", "ResumeJobs")), "waiting"),
    ("admitted, then completed", jobset_status(("Suspended", "False", "ResumeJobs"),
                                               ("Completed", "True", "AllJobsCompleted"),
                                               terminal="Completed"), "succeeded"),
    ("admitted, then failed", jobset_status(("Suspended", "False", "ResumeJobs"),
                                            ("Failed", "True", "FailedJobs"),
                                            terminal="Failed"), "failed"),
]


def check_jobset_conditions(path, failures):
    """Every JobSet an Argo resource template of `path` creates: queued is waiting, and its
    Kueue labels are the IR step's, on the JobSet and not on its pods."""
    ir = t.ir_of(path)
    steps = {s["k8s_name"]: s for s in ir["steps"]}
    text = t.run_flowc("compile", path, "--target", "argo", "-o", "-").stdout
    seen = 0
    for doc in yaml_reader.load_all(text):
        if not isinstance(doc, dict) or doc.get("kind") != "WorkflowTemplate":
            continue
        templates = {tpl["name"]: tpl for tpl in doc["spec"]["templates"]}
        for tpl in doc["spec"]["templates"]:
            resource = tpl.get("resource")
            manifest = yaml_reader.load(resource["manifest"]) if resource else None
            # (A bounded gang's delete template names a JobSet too: bounded_gang.h.)
            if not manifest or manifest.get("kind") != "JobSet" or resource["action"] != "create":
                continue
            seen += 1
            where = f"{path}: template {tpl['name']}"
            for name, obj, want in JOBSET_SCENARIOS:
                got = m.argo_resource_state(obj, resource["successCondition"],
                                            resource["failureCondition"])
                if got != want:
                    failures.append(f"{where}: a JobSet {name}: Argo's wait is {got!r}, not "
                                    f"{want!r}")
            step = steps.get(tpl["name"]) or next(
                s for s in steps.values()
                if (pod_readers.argo_bounded_gang(templates.get(s["k8s_name"], {}), templates)
                    or {}).get("name") == tpl["name"])
            want = (step.get("queue") or {}).get("labels", {})
            if (manifest["metadata"].get("labels") or {}) != want:
                failures.append(f"{where}: the JobSet's labels are "
                                f"{manifest['metadata'].get('labels')}, not {want}")
            if "kueue.x-k8s.io" in json.dumps(manifest["spec"]):
                failures.append(f"{where}: a pod of the JobSet has a Kueue label")
    if seen == 0:
        failures.append(f"{path}: no JobSet resource template")
    return seen


def check_queue(step, trainjob, where, failures):
    """The queue labels on the TrainJob, which Kueue admits, created suspended; none on the
    pods (the runtime's template is checked against the IR's pod by check_parity)."""
    want = (step.get("queue") or {}).get("labels", {})
    labels = trainjob["metadata"].get("labels", {})
    got = {k: v for k, v in labels.items() if k.startswith("kueue.x-k8s.io/")}
    if got != want:
        failures.append(f"{where}: the TrainJob's Kueue labels are {got}, not {want}")
    if trainjob["spec"].get("suspend", False) != bool(want):
        failures.append(f"{where}: the TrainJob's suspend is {trainjob['spec'].get('suspend')}, "
                        f"queued: {bool(want)}")
    for patch in trainjob["spec"].get("runtimePatches", []):
        if "kueue.x-k8s.io/queue-name" in json.dumps(patch):
            failures.append(f"{where}: a runtime patch gives the pods a queue label")


def check_conditions(step, resource, where, failures):
    emitted = step["trainjob"]["runtime"]["kind"] == "TrainingRuntime"
    for name, obj, own, referenced, queued in SCENARIOS:
        want = own if emitted else queued if "queue" in step else referenced
        try:
            got = m.argo_resource_state(obj, resource["successCondition"],
                                        resource["failureCondition"])
        except m.ModelError as e:
            failures.append(f"{where}: Argo cannot parse the conditions: {e}")
            return
        if got != want:
            failures.append(f"{where}: a TrainJob {name}: Argo's wait is {got!r}, not {want!r}")


# --- the test -------------------------------------------------------------------------------

def check_sample(path, tmp, failures, to_validate):
    ir = t.ir_of(path)
    check_runtime_name(ir, failures)
    steps = {s["name"]: s for s in ir["steps"]}
    seen = 0
    for version in ("3.7", "4.1"):
        where = f"{path} (Argo {version})"
        result = t.run_flowc("compile", path, "--target", "argo", "--argo-version", version,
                             "-o", "-")
        if result.returncode != 0:
            failures.append(f"{where}: does not compile:\n{result.stderr}")
            continue
        text = result.stdout
        out = os.path.join(tmp, f"{os.path.basename(path)}.{version}.yaml")
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
        to_validate.setdefault(version, []).append(out)
        trainjobs, runtimes = read_stream(text, ir, where, failures)
        created = os.path.join(tmp, f"{os.path.basename(path)}.{version}.created.yaml")
        with open(created, "w", encoding="utf-8") as f:
            yaml.safe_dump_all([tj for tj, _ in trainjobs.values()] + runtimes, f,
                               allow_unicode=True, sort_keys=False)
        to_validate.setdefault("objects", []).append(created)
        for name, (trainjob, resource) in trainjobs.items():
            at = f"{where}: step '{name}'"
            check_parity(steps[name], trainjob, runtimes, at, failures)
            check_conditions(steps[name], resource, at, failures)
            check_queue(steps[name], trainjob, at, failures)
            seen += 1
    if seen == 0:
        failures.append(f"{path}: no @trainjob step")
    return seen


def self_test(path):
    """Breaks of real objects that the checks above must report."""
    ir = t.ir_of(path)
    text = t.run_flowc("compile", path, "--target", "argo", "-o", "-").stdout
    problems = []
    trainjobs, runtimes = read_stream(text, ir, path, problems)
    if problems or not trainjobs:
        return [f"self-test: {path} does not read back: {problems}"]
    name, (trainjob, resource) = next(iter(trainjobs.items()))
    step = next(s for s in ir["steps"] if s["name"] == name)
    emitted = step["trainjob"]["runtime"]["kind"] == "TrainingRuntime"

    def runtime_job(rts):
        return rts[0]["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]

    def rename_container(tj, rts):
        if emitted:
            runtime_job(rts)["spec"]["template"]["spec"]["containers"][0]["name"] = "main"
        else:
            m.CLUSTER_RUNTIMES["broken"] = copy.deepcopy(m.TORCH_DISTRIBUTED)
            job = m.CLUSTER_RUNTIMES["broken"]["spec"]["template"]["spec"]["replicatedJobs"][0]
            job["template"]["spec"]["template"]["spec"]["containers"][0]["name"] = "main"
            tj["spec"]["runtimeRef"]["name"] = "broken"

    def drop_ancestor(tj, rts):
        if emitted:
            runtime_job(rts)["metadata"]["labels"].clear()
        else:
            tj["spec"]["runtimeRef"]["name"] = "no-such-runtime"

    def drop_toleration(tj, rts):
        if emitted:
            runtime_job(rts)["spec"]["template"]["spec"]["tolerations"].pop()
        else:
            spec = tj["spec"]["runtimePatches"][0]["trainingRuntimeSpec"]["template"]["spec"]
            spec["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
                "tolerations"].pop()

    def drop_torch(tj, rts):
        if emitted:
            rts[0]["spec"]["mlPolicy"].pop("torch")
        else:
            tj["spec"]["trainer"]["numNodes"] += 1

    def main_addr(tj, rts):
        # The address node 0 would have in a JobSet named after the step (the bare
        # @parallel form), not the Trainer's.
        for var in tj["spec"]["trainer"].get("env", []) if not emitted else \
                runtime_job(rts)["spec"]["template"]["spec"]["containers"][0]["env"]:
            if var["name"] == "FLOWC_MAIN_ADDR":
                var["value"] = var["value"].replace("-node-0-0", f"-{step['k8s_name']}-0-0")

    baseline = []
    check_parity(step, trainjob, runtimes, "self-test", baseline)
    check_conditions(step, resource, "self-test", baseline)
    if baseline:
        return [f"self-test ({path}): the unbroken objects already fail, so no break can be "
                f"seen: {baseline[0]}"]
    breaks = [("the container named main", rename_container),
              ("no trainer ancestor label", drop_ancestor),
              ("a toleration dropped", drop_toleration),
              ("the torch policy or the node count", drop_torch),
              ("FLOWC_MAIN_ADDR of a bare JobSet", main_addr)]
    out = []
    for label, brk in breaks:
        tj, rts = copy.deepcopy(trainjob), copy.deepcopy(runtimes)
        brk(tj, rts)
        found = []
        check_parity(step, tj, rts, "self-test", found)
        if not found:
            out.append(f"self-test ({path}): '{label}' is not reported")
    m.CLUSTER_RUNTIMES.pop("broken", None)
    for label, success in [("success on the first condition alone",
                            "status.conditions.0.type == Complete"),
                           ("a gjson query Argo cannot parse",
                            "status.conditions.#(type==Complete).status == True")]:
        if not emitted and label.startswith("success"):
            continue
        found = []
        check_conditions(step, dict(resource, successCondition=success), "self-test", found)
        if not found:
            out.append(f"self-test ({path}): '{label}' is not reported")
    return out


def main():
    failures = []
    checked = 0
    tmp = tempfile.mkdtemp(prefix="flowc-trainjob-")
    to_validate = {}
    paths = samples()
    kinds = set()
    for path in paths:
        try:
            checked += check_sample(path, tmp, failures, to_validate)
            kinds |= {s["trainjob"]["runtime"]["kind"] for s in t.ir_of(path)["steps"]
                      if "trainjob" in s}
        except (KeyError, TypeError, IndexError, StopIteration, yaml.YAMLError) as e:
            failures.append(f"{path}: cannot read the output back: {type(e).__name__}: {e}")
    if kinds != {"TrainingRuntime", "ClusterTrainingRuntime"}:
        failures.append(f"the samples reference runtimes of kinds {sorted(kinds)}, not both")
    for version in ("3.7", "4.1"):
        ok, report = t.validate(to_validate.get(version, []), "--argo-version", version)
        if not ok:
            failures.append(f"validate --argo-version {version}:\n{report}")
    ok, report = t.validate(to_validate.get("objects", []))
    if not ok:
        failures.append(f"validate (TrainJobs as Argo creates them, TrainingRuntimes):\n{report}")
    checked += check_jobset_conditions(os.path.join("samples", "shared_cluster.flow"), failures)
    for path in paths:
        failures.extend(self_test(path))
    t.finish("test_trainjob", failures, checked)


if __name__ == "__main__":
    main()
