"""End-to-end tests of `flowc compile FILE --target argo` (issue 4).

For every sample, every test flow (tests/flows) and every case beside the
goldens (tests/golden/argo/cases):
  - a flow Argo can run compiles to the golden tests/golden/argo/<name>.yaml,
    which passes flowc validate for Argo 3.7 and 4.1;
  - it reads back (python3-yaml, a YAML 1.1 reader like the API server's): the
    pod of every step, rebuilt from its container template (or from the JobSet
    manifest of a @parallel step) with Argo's templating spelled back in the
    flow's terms, equals `--target ir`'s pod field for field;
  - the DAGs say what the flow says: one task per step, `depends` from the
    graph, each foreach body a nested DAG run per element with the element
    passed in, retries, timeouts, params and the CronWorkflow;
  - one run of the workflow on the model of Argo (tests/py/argo_model.py: its
    substitution passes over DAG tasks, their items, templates and pods, as
    v3.7 and v4.1), with hostile values for params and elements, makes every
    step's pod and JobSet once per element, each equal to the IR's pod with
    the values in its command, as the container receives them: literal braces
    survive, and values spliced into a JobSet manifest cannot break out of
    their strings (tests/py/test_runtime_values.py: every hostile value);
  - a flow it cannot express exits 1, writes nothing to stdout, and prints
    exactly the golden diagnostics tests/golden/argo/<name>.stderr.
Refresh the goldens with FLOWC_UPDATE_GOLDENS=1 (tests/update_goldens.sh).
"""
import glob
import json
import os
import re
import tempfile

import yaml
import yaml_reader

import argo_model
import flowc_testlib as t
import pod_readers

GOLDEN_DIR = os.path.join("tests", "golden", "argo")
CASES_DIR = os.path.join(GOLDEN_DIR, "cases")
# Values the model of Argo substitutes: quotes, backslashes, YAML indicators
# and a line break, which would break a manifest they were spliced into raw.
WORKFLOW_NAME = "flow-x7k2p"
ITEM_VALUE = 'it"em\\ : #x\n- y'


def param_value(name):
    return f'{name}"v\\al: #1\n- {name}'


def cases():
    return sorted(os.path.relpath(p, t.SOURCE_DIR)
                  for p in glob.glob(os.path.join(t.SOURCE_DIR, CASES_DIR, "*.flow")))


# --- reading Argo's spelling back (tests/py/pod_readers.py) -------------------

def jobset_pod(jobset, where, failures, runtimes=()):
    """The pod of the one replicated Job of a step's JobSet, or the trainer's pod of a
    @trainjob step's TrainJob (pod_readers.gang_manifest_pod)."""
    return pod_readers.gang_manifest_pod(jobset, runtimes, where, failures)


def param_values(ir):
    """The params of the run: hostile text, and a JSON list of hostile text for a list."""
    return {p["name"]: json.dumps([ITEM_VALUE, param_value(p["name"])], ensure_ascii=False)
            if p["type"] == "list" else param_value(p["name"]) for p in ir["params"]}


def decoded_items(encoded):
    """withItems as Argo expands them, read back: the bodies of JSON string literals."""
    return [json.loads('"%s"' % item) for item in encoded]


# --- the DAGs ----------------------------------------------------------------

def expected_depends(ir, step, scope):
    """The tasks the step's task waits for in the DAG of `scope` (the
    innermost foreach's name, or None), derived from the IR anew."""
    by_name = {s["name"]: s for s in ir["steps"]}

    def representative(name):
        enclosing = by_name[name].get("enclosing_foreach", [])
        if scope is None:
            depth = 0
        elif scope in enclosing:
            depth = enclosing.index(scope) + 1
        else:
            return None
        if depth == len(enclosing):
            return ("step", name)
        return ("body", enclosing[depth])

    out = []
    for pred in step["predecessors"]:
        r = representative(pred)
        if r is not None and r not in out:
            out.append(r)
    return out


def check_workflow(ir, docs, where, failures):
    """Checks the documents' shape against the IR; returns {step: template}."""
    def expect(what, expected, actual):
        if expected != actual:
            failures.append(f"{where}: {what}: expected {json.dumps(expected)}, "
                            f"got {json.dumps(actual)}")

    schedule = ir.get("schedule")
    expect("documents", ["WorkflowTemplate"] + (["CronWorkflow"] if schedule else []),
           [d.get("kind") for d in docs])
    wt = docs[0]
    expect("apiVersion", "argoproj.io/v1alpha1", wt.get("apiVersion"))
    expect("metadata.name", ir["k8s_name"], wt["metadata"].get("name"))
    namespaces = {s["pod"].get("metadata", {}).get("namespace") for s in ir["steps"]}
    expect("metadata.namespace", namespaces.pop() if len(namespaces) == 1 else None,
           wt["metadata"].get("namespace"))

    params = []
    for p in ir["params"]:
        entry = {"name": p["name"]}
        if "default" in p:
            d = p["default"]
            entry["value"] = pod_readers.item_text(d)
        params.append(entry)
    expect("arguments", params, wt["spec"].get("arguments", {}).get("parameters", []))

    templates = {tpl["name"]: tpl for tpl in wt["spec"]["templates"]}
    expect("template names unique", len(wt["spec"]["templates"]), len(templates))
    entry = templates[wt["spec"]["entrypoint"]]
    steps = {s["name"]: s for s in ir["steps"]}
    k8s = {s["name"]: s["k8s_name"] for s in ir["steps"]}

    # Walk the DAGs from the entrypoint: every step's task exactly once, in
    # the DAG of its innermost foreach.
    step_templates = {}
    wrappers = {}
    seen = []

    def walk(dag_template, scope, depth):
        if depth > 10:
            failures.append(f"{where}: DAGs nest too deep")
            return
        if "dag" not in dag_template:
            failures.append(f"{where}: template {dag_template['name']} is not a DAG")
            return
        for key in ("nodeSelector", "tolerations", "volumes", "serviceAccountName", "metadata",
                    "activeDeadlineSeconds", "retryStrategy", "podSpecPatch"):
            if key in dag_template:
                failures.append(f"{where}: DAG {dag_template['name']} has {key}")
        expect(f"{dag_template['name']}.inputs",
               {"parameters": [{"name": "item"}]} if scope else None,
               dag_template.get("inputs"))
        names = {}
        for task in dag_template["dag"]["tasks"]:
            names[task["name"]] = task
        by_step = {}
        bodies = {}  # task name -> (task, DAG template)
        for task in dag_template["dag"]["tasks"]:
            tpl = templates.get(task["template"])
            if tpl is None:
                failures.append(f"{where}: task {task['name']} runs unknown {task['template']}")
                continue
            step_name = next((n for n, k in k8s.items() if k == task["name"]), None)
            if "dag" in tpl and not (step_name and bounds_gang(steps[step_name])):
                bodies[task["name"]] = (task, tpl)
            else:
                if step_name is None:
                    failures.append(f"{where}: task {task['name']} is no step")
                    continue
                by_step[step_name] = task
                step_templates[step_name] = tpl
                if bounds_gang(steps[step_name]):
                    # The step's template is the DAG around its gang: the checks below read
                    # the template that creates the gang.
                    wrappers[step_name] = tpl
                    step_templates[step_name] = check_wrapper(
                        tpl, steps[step_name], templates, wt["metadata"].get("namespace"),
                        expect)
                seen.append(step_name)
        # A body task waits for its foreach step alone.
        body_task_after = {task.get("depends"): task for task, _ in bodies.values()}
        for name, step in steps.items():
            enclosing = step.get("enclosing_foreach", [])
            inner = enclosing[-1] if enclosing else None
            if inner != scope:
                if name in by_step:
                    failures.append(f"{where}: step {name} in the DAG of {scope}")
                continue
            task = by_step.get(name)
            if task is None:
                failures.append(f"{where}: step {name} missing from the DAG of {scope}")
                continue
            expect(f"{name}.arguments",
                   {"parameters": [{"name": "item", "value": "{{inputs.parameters.item}}"}]}
                   if scope else None, task.get("arguments"))
            deps = []
            for kind, dep in expected_depends(ir, step, scope):
                if kind == "step":
                    deps.append(k8s[dep])
                else:
                    body = body_task_after.get(k8s[dep])
                    deps.append(body["name"] if body else f"<the body of {dep}>")
            expect(f"{name}.depends", " && ".join(deps) or None, task.get("depends"))
            if "foreach" in step:
                foreach = step["foreach"]
                btask = body_task_after.get(k8s[name])
                if btask is None:
                    failures.append(f"{where}: no body task after foreach step {name}")
                    continue
                expect(f"{btask['name']}.arguments",
                       {"parameters": [{"name": "item", "value": "{{item}}"}]},
                       btask.get("arguments"))
                # What the elements are is checked by running the workflow (check_runs).
                if "param" in foreach:
                    if f"workflow.parameters['{foreach['param']}']" not in btask.get("withParam",
                                                                                    ""):
                        failures.append(f"{where}: {btask['name']}.withParam does not read "
                                        f"{foreach['param']}")
                else:
                    expect(f"{btask['name']}.withItems", foreach["items"],
                           decoded_items(btask.get("withItems", [])))
                walk(templates[btask["template"]], name, depth + 1)
        extra = set(names) - {k8s[n] for n in by_step} - set(bodies)
        if extra:
            failures.append(f"{where}: unexpected tasks {sorted(extra)}")

    walk(entry, None, 0)
    expect("steps in the DAGs", sorted(steps), sorted(seen))

    for name, step in steps.items():
        tpl = step_templates.get(name)
        if tpl is None:
            continue
        at = f"template {tpl['name']}"
        item_input = [{"name": "item"}] if step.get("enclosing_foreach") else []
        if name in wrappers:
            expect(f"{at}.inputs", {"parameters": [{"name": "gang"}] + item_input},
                   tpl.get("inputs"))
        else:
            expect(f"{at}.inputs", {"parameters": item_input} if item_input else None,
                   tpl.get("inputs"))
        retry = step.get("retry", {})
        strategy = None
        if retry.get("times", 0) > 0:
            strategy = {"limit": retry["times"], "retryPolicy": "Always"}
            if retry.get("minutes_between_retries", 0) > 0:
                strategy["backoff"] = {"duration": f"{retry['minutes_between_retries']}m"}
        # A bounded gang is retried by the DAG around it, each attempt a gang of its own.
        retried = wrappers.get(name, tpl)
        expect(f"template {retried['name']}.retryStrategy", strategy,
               retried.get("retryStrategy"))
        if name in wrappers:
            expect(f"{at}.retryStrategy", None, tpl.get("retryStrategy"))
            wrapper = wrappers[name]
            expect(f"template {wrapper['name']} fields",
                   sorted(["name", "dag"] + (["inputs"] if item_input else []) +
                          (["retryStrategy"] if strategy else [])), sorted(wrapper))
            expect(f"template {wrapper['name']}.inputs",
                   {"parameters": item_input} if item_input else None, wrapper.get("inputs"))
        # A bounded gang's wait, time in a queue included, is its creating pod's deadline.
        deadline = step.get("timeout_seconds") if name in wrappers else None
        if "trainjob" in step:
            # Argo retries; the TrainJob of each attempt keeps the step's timeout as its
            # deadline. The conditions' meaning: tests/py/test_trainjob.py.
            resource = tpl.get("resource", {})
            emitted = step["trainjob"]["runtime"]["kind"] == "TrainingRuntime"
            expect(f"{at}.resource", {
                "action": "create", "setOwnerReference": True,
                "successCondition": "status.jobsStatus.0.succeeded == 1" if emitted
                else "status.conditions.%d.type == Complete" % (1 if "queue" in step else 0),
                "failureCondition": ",".join(f"status.conditions.{i}.type == Failed"
                                             for i in range(8))},
                {k: v for k, v in resource.items() if k != "manifest"})
            trainjob = yaml_reader.load(resource.get("manifest", "{}"))
            expect(f"{at} TrainJob runtimeRef", {"apiGroup": "trainer.kubeflow.org",
                                                 **step["trainjob"]["runtime"]},
                   trainjob["spec"].get("runtimeRef"))
            expect(f"{at} TrainJob numNodes", step["parallel"]["nodes"],
                   trainjob["spec"]["trainer"].get("numNodes"))
            expect(f"{at} TrainJob activeDeadlineSeconds", step.get("timeout_seconds"),
                   trainjob["spec"].get("activeDeadlineSeconds"))
            expect(f"{at}.activeDeadlineSeconds", deadline, tpl.get("activeDeadlineSeconds"))
        elif "parallel" in step:
            # Argo retries; the JobSet of each attempt fails at once and keeps
            # the step's timeout as each Job's deadline.
            resource = tpl.get("resource", {})
            expect(f"{at}.resource", {
                "action": "create", "setOwnerReference": True,
                "successCondition": "status.terminalState == Completed",
                "failureCondition": "status.terminalState == Failed"},
                {k: v for k, v in resource.items() if k != "manifest"})
            jobset = yaml_reader.load(resource.get("manifest", "{}"))
            expect(f"{at} JobSet failurePolicy", None, jobset["spec"].get("failurePolicy"))
            job = jobset["spec"]["replicatedJobs"][0]["template"]["spec"]
            expect(f"{at} JobSet parallelism", step["parallel"]["nodes"], job.get("parallelism"))
            expect(f"{at} JobSet activeDeadlineSeconds", step.get("timeout_seconds"),
                   job.get("activeDeadlineSeconds"))
            expect(f"{at}.activeDeadlineSeconds", deadline, tpl.get("activeDeadlineSeconds"))
        else:
            expect(f"{at}.activeDeadlineSeconds", step.get("timeout_seconds"),
                   tpl.get("activeDeadlineSeconds"))

    if schedule:
        cron = docs[1]
        expect("CronWorkflow name", ir["k8s_name"], cron["metadata"].get("name"))
        expect("CronWorkflow namespace", wt["metadata"].get("namespace"),
               cron["metadata"].get("namespace"))
        expect("schedules", [schedule["cron"]], cron["spec"].get("schedules"))
        expect("timezone", schedule.get("timezone"), cron["spec"].get("timezone"))
        expect("workflowSpec", {"workflowTemplateRef": {"name": ir["k8s_name"]}},
               cron["spec"].get("workflowSpec"))
    return step_templates


def bounds_gang(step):
    """A gang with @timeout: its step's template is a DAG around it (argo bounded_gang.h)."""
    return "parallel" in step and "timeout_seconds" in step


def check_wrapper(wrapper, step, templates, namespace, expect):
    """The DAG around a bounded gang: one task creating it, whose exit hook deletes it unless
    the task succeeded, both naming the same gang; returns the creating template."""
    at = f"template {wrapper['name']}"
    tasks = wrapper["dag"]["tasks"]
    expect(f"{at} tasks", ["gang"], [t["name"] for t in tasks])
    task = tasks[0]
    gang = [p for p in task.get("arguments", {}).get("parameters", []) if p["name"] == "gang"]
    hook = task.get("hooks", {}).get("exit", {})
    expect(f"{at} hooks", ["exit"], sorted(task.get("hooks", {})))
    expect(f"{at} hook expression", "tasks.gang.status != 'Succeeded'", hook.get("expression"))
    expect(f"{at} hook arguments", {"parameters": gang}, hook.get("arguments"))
    name = gang[0]["value"] if gang else ""
    expect(f"{at} gang name has the attempt", "retry" in step and step["retry"]["times"] > 0,
           name.endswith("-{{retries}}"))
    expect(f"{at} gang name has the element", bool(step.get("enclosing_foreach")),
           "sha1sum(node.name)" in name)
    delete = templates.get(hook.get("template"), {})
    meta = {"name": "{{inputs.parameters.gang}}"}
    if namespace:
        meta["namespace"] = namespace
    expect(f"template {delete.get('name')}", {
        "inputs": {"parameters": [{"name": "gang"}]},
        "resource": {"action": "delete", "manifest": {
            "apiVersion": "trainer.kubeflow.org/v1alpha1" if "trainjob" in step
            else "jobset.x-k8s.io/v1alpha2",
            "kind": "TrainJob" if "trainjob" in step else "JobSet", "metadata": meta}}},
        {"inputs": delete.get("inputs"), "resource": dict(
            delete.get("resource", {}),
            manifest=yaml_reader.load(delete.get("resource", {}).get("manifest", "{}")))})
    return templates.get(task["template"], {})


def admitted_pod(step):
    """The IR's pod of `step` as Argo gives it: a plain step's pod with the step's Kueue queue
    labels, the pod being what Kueue admits; a gang's pods never have them (their JobSet or
    TrainJob does: tests/py/test_parity.py, test_trainjob.py)."""
    labels = (step.get("queue") or {}).get("labels")
    if not labels or "parallel" in step:
        return step["pod"]
    pod = json.loads(json.dumps(step["pod"]))
    pod.setdefault("metadata", {}).setdefault("labels", {}).update(labels)
    return pod


def check_pods(ir, wt, step_templates, where, failures, runtimes=()):
    """Every step's pod, read back from its template in the flow's spelling, equals the IR's;
    `runtimes`: the TrainingRuntimes of the stream."""
    checked = 0
    for step in ir["steps"]:
        tpl = step_templates.get(step["name"])
        if tpl is None:
            continue
        at = f"{where}: step {step['name']}"
        if "parallel" in step:
            extra = set(tpl) - pod_readers.RESOURCE_TEMPLATE_KEYS
            if extra:
                failures.append(f"{at}: unexpected template fields {sorted(extra)}")
            read = jobset_pod(yaml_reader.load(tpl["resource"]["manifest"]), at, failures,
                              runtimes)
        else:
            read = pod_readers.argo_container_pod(wt, tpl, at, failures)
        failures.extend(t.diff_pods(
            admitted_pod(step), pod_readers.map_strings(read, pod_readers.argo_flow_spelling),
            at))
        checked += 1
    return checked


def model_pod(created, where, failures, runtimes):
    """The pod a created object stands for, in the IR JSON pod shape: a Pod's own fields and
    its main container; a JobSet's (or TrainJob's) pod."""
    if created["kind"] != "Pod":
        return jobset_pod(created["object"], where, failures, runtimes)
    pod = created["object"]
    spec = {k: v for k, v in pod["spec"].items()
            if k in ("serviceAccountName", "nodeSelector", "tolerations", "volumes",
                     "imagePullSecrets", "resourceClaims")}
    spec["containers"] = [pod["spec"]["containers"][-1]]
    metadata = {k: v for k, v in pod["metadata"].items()
                if k in ("namespace", "labels", "annotations")}
    return {"metadata": metadata, "spec": spec} if metadata else {"spec": spec}


def check_runs(ir, runs, where, failures, jobsets, runtimes=(), values=None, models=None,
               **run_options):
    """One run of the workflow on the model of Argo per version, (version, documents) in
    `runs`, with hostile values (`values`, or param_values): each step's pods and gangs, once
    per element, equal the IR's pod with the values in its command, as the container receives
    them (kubelet's reading on both sides). Appends each JobSet or TrainJob, as Argo 4.1
    creates it, to `jobsets`, and each run (argo_model.Workflow, run with `run_options`) to
    `models`, by version. Returns {version: what the run created}
    (argo_model.Workflow.created)."""
    values = param_values(ir) if values is None else values
    steps = {s["k8s_name"]: s for s in ir["steps"]}
    by_name = {s["name"]: s for s in ir["steps"]}
    # A bounded gang is created by the template its step's DAG runs (in any WorkflowTemplate
    # of a split flow).
    for wt in runs[-1][1]:
        if wt.get("kind") != "WorkflowTemplate":
            continue
        for tpl in wt["spec"]["templates"]:
            if tpl["name"] in steps and "dag" in tpl and bounds_gang(steps[tpl["name"]]):
                steps[tpl["dag"]["tasks"][0]["template"]] = steps[tpl["name"]]

    def elements(step):
        chain = step.get("enclosing_foreach", [])
        if not chain:
            return [None]
        foreach = by_name[chain[-1]]["foreach"]
        if "items" in foreach:
            return foreach["items"]
        return [pod_readers.item_text(v) for v in json.loads(values[foreach["param"]])]

    runs_created = {}
    for version, docs in runs:
        try:
            model = argo_model.run_all(docs, version, values, name=WORKFLOW_NAME, **run_options)
        except argo_model.ArgoError as e:
            failures.append(f"{where}: Argo {version} fails the run: {e}")
            continue
        created = model.created
        if models is not None:
            models[version] = model
        runs_created[version] = created
        counts = {}
        for c in created:
            step = steps[c["template"]]
            at = f"{where}: step {step['name']} (Argo {version}, {c['kind']})"
            counts[step["name"]] = counts.get(step["name"], 0) + 1
            bind = dict(values, run_id=WORKFLOW_NAME)
            if "item" in c["inputs"]:
                bind["item"] = json.loads('"%s"' % c["inputs"]["item"])
                if bind["item"] not in elements(step):
                    failures.append(f"{at}: ran with element {bind['item']!r}")
            failures.extend(t.diff_pods(
                pod_readers.bound_pod(admitted_pod(step), bind),
                pod_readers.received_pod(model_pod(c, at, failures, runtimes)), at))
            if c["kind"] != "Pod":
                if version == 4:
                    jobsets.append(c["object"])
                name = c["object"]["metadata"]["name"]
                if not re.fullmatch(r"[a-z][-a-z0-9]{0,61}[a-z0-9]", name) or \
                        not name.startswith(f"{WORKFLOW_NAME}-{step['k8s_name']}"):
                    failures.append(f"{at}: name {name!r}")
        for step in ir["steps"]:
            want = 1
            for f in step.get("enclosing_foreach", []):
                want *= len(elements(by_name[by_name[f]["foreach"]["body"]]))
            if counts.get(step["name"], 0) != want:
                failures.append(f"{where}: step {step['name']} (Argo {version}) ran "
                                f"{counts.get(step['name'], 0)} times, not {want}")
    return runs_created


def check_bounded_runs(failures):
    """Runs on the model of Argo whose bounded gangs fail (their gang failed, or the creating
    pod's deadline, @timeout, ended the wait, time in a Kueue queue included): each attempt's
    gang has a name of its own, its creating pod has @timeout as its deadline, and a gang an
    attempt left is deleted before the next attempt creates its own; a gang that succeeded
    is kept."""
    cases = [
        # A foreach of two elements, retried: the first element's third attempt succeeds, the
        # second's second.
        (os.path.join(CASES_DIR, "bounded_gang.flow"), "train-gang",
         ["Failed", "Failed", "Succeeded", "Failed", "Succeeded"], 1800, "JobSet"),
        # A TrainJob, not retried: it fails once and for all.
        (os.path.join("tests", "flows", "trainjob_queued.flow"), None, ["Failed"], None,
         "TrainJob"),
    ]
    for path, template, outcomes, deadline, kind in cases:
        ir = t.ir_of(path)
        gang_steps = [s for s in ir["steps"] if bounds_gang(s)]
        if len(gang_steps) != 1:
            failures.append(f"{path}: expected one bounded gang, got {len(gang_steps)}")
            continue
        step = gang_steps[0]
        template = template or step["k8s_name"] + "-gang"
        deadline = deadline or step["timeout_seconds"]
        for version in ("3.7", "4.1"):
            out = t.run_flowc("compile", path, "--target", "argo", "--argo-version", version,
                              "-o", "-").stdout
            docs = [d for d in yaml_reader.load_all(out) if d.get("kind") == "WorkflowTemplate"]
            at = f"{path} (Argo {version}, outcomes {outcomes})"
            run = argo_model.Workflow(docs, int(version[0]), param_values(ir), WORKFLOW_NAME,
                                      {template: outcomes})
            try:
                run.run()
            except argo_model.ArgoError as e:
                failures.append(f"{at}: {e}")
                continue
            gangs = [(i, c) for i, c in enumerate(run.created) if c["template"] == template]
            names = [c["object"]["metadata"]["name"] for _, c in gangs]
            if len(gangs) != len(outcomes) or len(set(names)) != len(names):
                failures.append(f"{at}: gangs {names}")
                continue
            for (_, c), name in zip(gangs, names):
                if c["kind"] != kind or not name.startswith(f"{WORKFLOW_NAME}-{step['k8s_name']}"):
                    failures.append(f"{at}: gang {c['kind']} {name}")
                if c["pod"]["spec"].get("activeDeadlineSeconds") != deadline:
                    failures.append(f"{at}: the pod creating {name} has deadline "
                                    f"{c['pod']['spec'].get('activeDeadlineSeconds')}")
            # What is deleted, and when: each failed attempt's gang, right after it was created
            # (before anything else is), never a gang that succeeded.
            want = [(i + 1, kind, name) for (i, _), name, o in zip(gangs, names, outcomes)
                    if o != "Succeeded"]
            got = [(d["after"], d["kind"], d["object"]["metadata"]["name"]) for d in run.deleted]
            if got != want:
                failures.append(f"{at}: deleted {got}, expected {want}")


def main():
    failures = []
    checked = 0
    outputs = []
    jobsets = []
    tmp = tempfile.mkdtemp(prefix="flowc-argo-")
    for path in t.samples() + t.test_flows() + cases():
        name = os.path.splitext(os.path.basename(path))[0]
        result = t.run_flowc("compile", path, "--target", "argo", "-o", "-")
        checked += 1
        if result.returncode != 0:
            if path in t.samples():
                failures.append(f"{path}: does not compile for argo:\n{result.stderr}")
                continue
            if result.returncode != 1 or result.stdout:
                failures.append(f"{path}: exit {result.returncode}, {len(result.stdout)} bytes out")
            t.check_golden(os.path.join(GOLDEN_DIR, name + ".stderr"), result.stderr, failures)
            continue
        t.check_golden(os.path.join(GOLDEN_DIR, name + ".yaml"), result.stdout, failures)
        out = os.path.join(tmp, name + ".yaml")
        with open(out, "w", encoding="utf-8") as f:
            f.write(result.stdout)
        outputs.append(out)
        # Before v4.1, a step's DRA claims go in its podSpecPatch: that form is validated for
        # 3.7 (the default, v4.1 form, has template resourceClaims, which 3.7 lacks).
        old_form = t.run_flowc("compile", path, "--target", "argo", "--argo-version", "3.7",
                               "-o", "-").stdout
        if old_form != result.stdout:
            with open(os.path.join(tmp, name + ".argo37.yaml"), "w", encoding="utf-8") as f:
                f.write(old_form)
        try:
            docs = list(yaml_reader.load_all(result.stdout))
            ir = t.ir_of(path)
            # The objects the pods need (claim templates, ConfigMaps, TrainingRuntimes) come
            # first in the stream.
            runtimes = [d for d in docs if d.get("kind") == "TrainingRuntime"]
            docs = [d for d in docs if d.get("kind") in ("WorkflowTemplate", "CronWorkflow")]
            step_templates = check_workflow(ir, docs, path, failures)
            check_pods(ir, docs[0], step_templates, path, failures, runtimes)
            check_runs(ir, [(3, list(yaml_reader.load_all(old_form))), (4, docs)], path,
                       failures, jobsets, runtimes)
        except (KeyError, TypeError, IndexError, argo_model.ArgoError, yaml.YAMLError) as e:
            failures.append(f"{path}: cannot read the output back: {type(e).__name__}: {e}")
    check_bounded_runs(failures)
    if outputs:
        for version in ("3.7", "4.1"):
            # Each output as compiled for that version (--argo-version 3.7 where it differs).
            paths = [p for p in outputs if version == "4.1" or
                     not os.path.exists(p[:-len(".yaml")] + ".argo37.yaml")]
            paths += sorted(glob.glob(os.path.join(tmp, "*.argo37.yaml")))
            ok, report = t.validate(paths, "--argo-version", version)
            if not ok:
                failures.append(f"validate --argo-version {version}:\n{report}")
    if jobsets:
        # The JobSets as Argo creates them, names and values substituted.
        created = os.path.join(tmp, "created-jobsets.yaml")
        with open(created, "w", encoding="utf-8") as f:
            # As JSON documents, which Argo's API call sends: PyYAML writes the string "y"
            # unquoted, which kubectl's YAML 1.1 reader (and flowc validate) takes for true.
            f.write("".join("---\n" + json.dumps(j, ensure_ascii=False) + "\n" for j in jobsets))
        ok, report = t.validate([created])
        if not ok:
            failures.append(f"validate (JobSets Argo creates):\n{report}")
    t.finish("test_argo", failures, checked)


if __name__ == "__main__":
    main()
