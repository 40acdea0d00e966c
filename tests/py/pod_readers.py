"""Independent readers of flowc's output: every step's pod, rebuilt from what a target wrote.

One reader per target, each returning {step name: [Instance]}, in the IR JSON pod shape that
`flowc compile --target ir` prints (tests/py/test_parity.py compares them; test_argo.py,
test_airflow.py and test_jobset.py use the same building blocks):

  argo_pods(yaml_text, ir)     the container template of each step's task, or the pod of the
                               JobSet manifest in its resource template (@parallel), or of the
                               TrainJob there (@trainjob: gang_manifest_pod);
  airflow_pods(dag_path, ir)   the DAG file executed against tests/py/airflow_stub: the pod each
                               KubernetesPodOperator task builds, and the pod of the JobSet each
                               @parallel task creates, once per task run (foreach elements);
  jobset_pods(yaml_text, ir)   the pod of each step's replicated Job.

The readers normalise nothing but formatting (YAML and Python are parsed, nothing is sorted,
defaulted or dropped; a field a reader does not understand is reported, never ignored). Target
templating is spelled back as the flow spells it:
  - Argo: {{workflow.parameters.x}} and the manifest expressions -> {{x}},
    {{inputs.parameters.item}} -> {{item}}, {{workflow.name}} -> {{run_id}}, brace escapes undone;
  - Airflow: rendered with Jinja as Airflow renders it, in a run whose params and run id are
    marked strings (see MARK), so {{ params.x }}, {{ params.x | flowc_text }} and
    {{ run_id }} come out as {{x}} and {{run_id}}, and Jinja undoes the escapes ({{ '{{' }},
    {{ '\\r' }}, ...).
  References are spelled back in commands only: the flow has none elsewhere, so a variable a
  target would substitute outside a command stays as it is and differs from the IR.
A reference a target resolves before any pod exists cannot be spelled back: Airflow's foreach
elements (written out at compile time or mapped at run time) and the JobSet target's params
(their defaults) and run id (the JobSet's name). An Instance names those in `bind`
({reference: the text it stands for}); the pod carries that text where the flow has the
reference, written so that the container receives it: compare such a pod's commands as the
container receives them, received_pod(pod) with bound_pod(ir_pod, bind) (kubelet's `$$` and
`$(NAME)` read on both sides).

Run as a script (`pod_readers.py airflow-spelled DAG_FILE VALUES_JSON`) it is the Airflow
reader's subprocess, which loads the stand-in airflow package; the tests run it, and
run_dag.py, through their fork servers (`--serve`, dag_pool.py).
"""
import json
import os
import re
import sys

import dag_pool
import yaml_reader

import trainer_model

HERE = os.path.dirname(os.path.abspath(__file__))
STUB_DIR = os.path.join(HERE, "airflow_stub")
RUN_DAG = os.path.join(STUB_DIR, "run_dag.py")
PYTHON = "/usr/bin/python3"

# A reference as compiler/graph/templating.cc splits it; the IR spells each as `{{name}}`.
REFERENCE = re.compile(r"\{\{ *([A-Za-z_][A-Za-z0-9_]*) *\}\}")


class ReadError(Exception):
    """The output cannot be read back (raised when no `problems` list is given)."""


def instance(pod, label, bind=None, admitted=None):
    """One pod a target makes for a step. `bind`: the references it resolved, as text.
    `admitted`: the labels of the object that owns the pod and that Kueue admits in its
    place (a JobSet, a TrainJob); None for a pod created on its own, which Kueue admits
    itself."""
    return {"pod": pod, "label": label, "bind": dict(bind or {}), "admitted": admitted}


def _finish(problems, own):
    if own and problems:
        raise ReadError("\n".join(problems))


def map_strings(value, fn):
    """`value` with `fn` applied to every string in it, dict keys included."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, list):
        return [map_strings(v, fn) for v in value]
    if isinstance(value, dict):
        return {k if not isinstance(k, str) else fn(k): map_strings(v, fn)
                for k, v in value.items()}
    return value


def item_text(value):
    """A foreach element or param value as `{{name}}` renders it: a string as it is, anything
    else as the IR writes it (ir_json; the IR's literal items; the Airflow DAG's flowc_text)."""
    if isinstance(value, str):
        return value
    return ir_json(value)


def ir_json(value):
    """A value as the IR writes it (nlohmann::json): compact JSON, object keys sorted, a float
    as the shortest digits, fixed while the point is within 15 digits of them (0.0001, 1.5,
    3.0, 100000000000000.0), else d.ddde+XX (1e+15, 1e-05)."""
    if isinstance(value, list):
        return "[" + ",".join(ir_json(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + ir_json(v)
                              for k, v in sorted(value.items())) + "}"
    if not isinstance(value, float):
        return json.dumps(value, ensure_ascii=False)
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    point = len(whole) + int(exponent or 0) - (len(whole + fraction) - len(digits))
    digits = digits.rstrip("0")
    sign = "-" if repr(value).startswith("-") else ""
    if not digits:
        return sign + "0.0"
    if len(digits) <= point <= 15:
        return sign + digits + "0" * (point - len(digits)) + ".0"
    if 0 < point <= 15:
        return sign + digits[:point] + "." + digits[point:]
    if -4 < point <= 0:
        return sign + "0." + "0" * -point + digits
    exponent = point - 1
    return "%s%s%se%s%02d" % (sign, digits[0], "." + digits[1:] if len(digits) > 1 else "",
                              "-" if exponent < 0 else "+", abs(exponent))


def kubelet(arg):
    """A command argument as the container receives it: kubelet reads `$$` as
    `$` and `$(NAME)` as a reference, shown here as <<NAME>> so that an
    unintended one shows up in the diff (k8s.io/kubernetes
    third_party/forked/golang/expansion)."""
    out = []
    i = 0
    while i < len(arg):
        if arg[i] == "$" and i + 1 < len(arg):
            if arg[i + 1] == "$":
                out.append("$")
                i += 2
                continue
            close = arg.find(")", i + 2)
            if arg[i + 1] == "(" and close != -1:
                out.append(f"<<{arg[i + 2:close]}>>")
                i = close + 1
                continue
        out.append(arg[i])
        i += 1
    return "".join(out)


def _with_commands(pod, fn):
    out = json.loads(json.dumps(pod))
    for container in out["spec"].get("containers", []):
        if "command" in container:
            container["command"] = [fn(arg) for arg in container["command"]]
    return out


def received_pod(pod):
    """`pod` with each command argument as the container receives it (kubelet)."""
    return _with_commands(pod, kubelet)


def bound_pod(ir_pod, bind):
    """The IR pod `ir_pod` with each command argument as the container receives it when the
    references named in `bind` stand for their text: each literal part as kubelet reads it
    (the IR escaped each one for kubelet), each bound reference its text exactly, any other
    reference spelled `{{name}}`. References live only in commands (docs/language.md)."""
    def received(arg):
        parts = []
        last = 0
        for m in REFERENCE.finditer(arg):
            parts.append(kubelet(arg[last:m.start()]))
            name = m.group(1)
            parts.append(bind[name] if name in bind else "{{" + name + "}}")
            last = m.end()
        parts.append(kubelet(arg[last:]))
        return "".join(parts)
    return _with_commands(ir_pod, received)


# --- the pod of a replicated Job (JobSet target, Argo resource templates, Airflow) ----------

def jobset_job_pod(jobset, rjob, where, problems):
    """The pod of replicated Job `rjob` of `jobset`, in the IR JSON pod shape: the JobSet's
    namespace is the pod's, and restartPolicy (the JobSet's, not the step's) must be Never;
    everything else in the pod template is the pod."""
    template = rjob["template"]["spec"]["template"]
    spec = dict(template["spec"])
    if spec.pop("restartPolicy", None) != "Never":
        problems.append(f"{where}: restartPolicy is not Never")
    metadata = {}
    if "namespace" in jobset["metadata"]:
        metadata["namespace"] = jobset["metadata"]["namespace"]
    metadata.update(template.get("metadata") or {})
    pod = {"metadata": metadata} if metadata else {}
    pod["spec"] = spec
    return pod


# --- Argo ----------------------------------------------------------------------------------

# What the Argo target writes in place of flow text (backends/argo/templating.h), in one
# alternation so that braces an escape yields are never read again: literal braces as
# expressions, the run id as Argo's variable, a param or the element as an expression that
# doubles its `$` for kubelet (JSON-escaped in a manifest; its own braces hidden from the pass
# that decodes the element), literal braces right before it written into it.
def _argo_value_spelling():
    literal = re.escape
    hidden = literal("sprig.replace('{', '{' + '{=' + sprig.squote('{') + '}' + '}', ")
    json_body = literal("sprig.regexReplaceAll('^.|.$', toJson(")
    kubelet = literal("sprig.replace('$', '$$', ")
    param = r"workflow\.parameters\['(?P<param>[A-Za-z0-9_]+)'\]"
    item = literal("sprig.fromJson(sprig.replace('x', inputs.parameters.item, toJson('x')))")
    return (r"\{\{=(?P<hidden>" + hidden + r")?(?:'(?P<valuebraces>\{+)' \+ )?"
            r"(?P<json>" + json_body + r")?" + kubelet + r"(?:" + param + r"|(?P<item>" + item +
            r"))\)(?(json)" + literal("), '')") + r")(?(hidden)\))\}\}")


ARGO_SPELLING = re.compile(
    r"\{\{='(?P<braces>\{+)'\}\}"
    r"|" + _argo_value_spelling() +
    r"|\{\{(?P<var>workflow\.name)\}\}")


def argo_flow_spelling(text, references=True):
    """Argo text spelled as the flow (and the IR JSON) spells it. references=False: undo the
    brace escapes only, and leave Argo's variables as they are (outside commands, where the
    flow has no references)."""
    def replace(m):
        if m.group("braces"):
            return m.group("braces")
        if not references:
            return m.group(0)
        if m.group("var"):
            return "{{run_id}}"
        name = "item" if m.group("item") else m.group("param")
        return (m.group("valuebraces") or "") + "{{" + name + "}}"
    return ARGO_SPELLING.sub(replace, text)


POD_SPEC_KEYS = ("serviceAccountName", "nodeSelector", "tolerations", "volumes")
CONTAINER_TEMPLATE_KEYS = {"name", "inputs", "metadata", "container", "podSpecPatch",
                           "retryStrategy", "activeDeadlineSeconds", "resourceClaims",
                           *POD_SPEC_KEYS}
# What flowc may put in a template's podSpecPatch: pod fields a template lacks (pull secrets
# for one step; DRA claims before Argo 4.1). Both are lists merged by `name` (the strategic
# merge keys of PodSpec.imagePullSecrets and PodSpec.resourceClaims in k8s.io/api core/v1).
POD_SPEC_PATCH_KEYS = {"imagePullSecrets", "resourceClaims"}


def strategic_merge_by_name(base, patch):
    """A strategic merge of two lists whose patch merge key is `name`."""
    out = [dict(x) for x in base or []]
    for item in patch:
        for i, x in enumerate(out):
            if x.get("name") == item.get("name"):
                out[i] = {**x, **item}
                break
        else:
            out.append(item)
    return out
RESOURCE_TEMPLATE_KEYS = {"name", "inputs", "resource", "retryStrategy", "activeDeadlineSeconds"}
# Workflow spec fields Argo merges into every pod; the reader applies imagePullSecrets only.
WORKFLOW_POD_KEYS = {"podMetadata", "nodeSelector", "tolerations", "affinity", "securityContext",
                     "serviceAccountName", "automountServiceAccountToken", "executor", "volumes",
                     "podSpecPatch", "templateDefaults", "hostAliases", "dnsPolicy", "dnsConfig",
                     "priorityClassName", "podPriorityClassName", "schedulerName",
                     "hostNetwork", "podDisruptionBudget"}


def argo_container_pod(workflow, template, where, problems):
    """The pod a container template asks Argo for, in the IR JSON pod shape (Argo spelling)."""
    extra = set(template) - CONTAINER_TEMPLATE_KEYS
    if extra:
        problems.append(f"{where}: unexpected template fields {sorted(extra)}")
    merged = sorted(WORKFLOW_POD_KEYS & set(workflow["spec"]))
    if merged:
        problems.append(f"{where}: workflow spec fields {merged} change every pod")
    spec = {k: template[k] for k in POD_SPEC_KEYS if k in template}
    pull_secrets = workflow["spec"].get("imagePullSecrets")
    if pull_secrets:
        spec["imagePullSecrets"] = pull_secrets
    if "resourceClaims" in template:  # Argo 4.1 copies them into the pod's spec
        spec["resourceClaims"] = template["resourceClaims"]
    if "podSpecPatch" in template:
        patch = yaml_reader.load(template["podSpecPatch"])
        if not set(patch) <= POD_SPEC_PATCH_KEYS:
            problems.append(f"{where}: podSpecPatch patches {sorted(patch)}")
        if pull_secrets and "imagePullSecrets" in patch:
            problems.append(f"{where}: podSpecPatch and workflow imagePullSecrets both set")
        for key, value in patch.items():
            spec[key] = strategic_merge_by_name(spec.get(key), value)
    spec["containers"] = [template["container"]]
    metadata = {}
    if "namespace" in workflow["metadata"]:
        metadata["namespace"] = workflow["metadata"]["namespace"]
    metadata.update(template.get("metadata") or {})
    pod = {"metadata": metadata} if metadata else {}
    pod["spec"] = spec
    return pod


def gang_manifest_pod(manifest, runtimes, where, problems):
    """The pod of a @parallel step's gang: the one replicated Job of its JobSet, or, for a
    TrainJob, the trainer's pod the Trainer builds from it and its runtime (one of the
    `runtimes` delivered beside it, or a cluster's: tests/py/trainer_model.py), less what the
    Trainer's torch policy adds itself, which is checked to be exactly that."""
    if manifest.get("kind") == "TrainJob":
        try:
            template, count = trainer_model.trainer_pod(manifest, runtimes)
        except trainer_model.ModelError as e:
            problems.append(f"{where}: the Trainer cannot run the TrainJob: {e}")
            return {}
        template = trainer_model.without_torch_additions(template, manifest, count, problems,
                                                         where)
        if manifest["spec"]["runtimeRef"].get("kind") == "ClusterTrainingRuntime":
            # A referenced runtime keeps its own restart policy (a runtime patch has none):
            # docs/trainjob.md; jobset_job_pod checks flowc's own.
            template["spec"]["restartPolicy"] = "Never"
        # The JobSet the Trainer creates is in the TrainJob's namespace.
        jobset = {"metadata": {k: v for k, v in manifest["metadata"].items()
                               if k == "namespace"}}
        return jobset_job_pod(jobset, {"template": {"spec": {"template": template}}}, where,
                              problems)
    if manifest.get("kind") != "JobSet":
        problems.append(f"{where}: the resource template creates a {manifest.get('kind')}")
    rjobs = manifest["spec"]["replicatedJobs"]
    if len(rjobs) != 1:
        problems.append(f"{where}: {len(rjobs)} replicated jobs")
    return jobset_job_pod(manifest, rjobs[0], where, problems)


def argo_manifest_pod(template, where, problems, runtimes=()):
    """The pod of the JobSet or TrainJob a resource template (a @parallel step) creates (Argo
    spelling); `runtimes`: the TrainingRuntimes of the stream."""
    extra = set(template) - RESOURCE_TEMPLATE_KEYS
    if extra:
        problems.append(f"{where}: unexpected template fields {sorted(extra)}")
    return gang_manifest_pod(yaml_reader.load(template["resource"]["manifest"]), runtimes, where,
                             problems)


def argo_bounded_gang(template, templates):
    """The template that creates the gang of a step whose @timeout bounds the gang's wait, when
    `template` is that step's: a DAG of one task `gang` with an exit hook (the Argo backend's
    bounded_gang.h); else None."""
    tasks = template.get("dag", {}).get("tasks", [])
    if len(tasks) != 1 or tasks[0]["name"] != "gang" or "exit" not in tasks[0].get("hooks", {}):
        return None
    return templates.get(tasks[0]["template"])


def argo_step_templates(workflow, ir, where, problems):
    """{step name: [the leaf template of each task that runs it]}, found by walking the DAGs
    from the entrypoint; a task's name is its step's Kubernetes name."""
    templates = {tpl["name"]: tpl for tpl in workflow["spec"]["templates"]}
    step_of = {s["k8s_name"]: s["name"] for s in ir["steps"]}
    found = {}

    def walk(dag_template, stack):
        for task in dag_template["dag"]["tasks"]:
            tpl = templates.get(task["template"])
            if tpl is not None and task["name"] in step_of:
                tpl = argo_bounded_gang(tpl, templates) or tpl
            if tpl is None:
                problems.append(f"{where}: task {task['name']} runs unknown {task['template']}")
            elif "dag" in tpl:
                if tpl["name"] in stack:
                    problems.append(f"{where}: DAG {tpl['name']} runs itself")
                else:
                    walk(tpl, stack + [tpl["name"]])
            elif task["name"] not in step_of:
                problems.append(f"{where}: task {task['name']} runs no step")
            else:
                found.setdefault(step_of[task["name"]], []).append(tpl)

    entry = templates.get(workflow["spec"].get("entrypoint"))
    if entry is None or "dag" not in entry:
        problems.append(f"{where}: the entrypoint is no DAG")
    else:
        walk(entry, [entry["name"]])
    return found


def argo_pods(yaml_text, ir, problems=None, where=None):
    """{step: [Instance]} from `flowc compile --target argo` output, in flow spelling."""
    own = problems is None
    problems = [] if own else problems
    where = where or ir["flow"]
    all_docs = list(yaml_reader.load_all(yaml_text))
    runtimes = [d for d in all_docs if isinstance(d, dict) and d.get("kind") == "TrainingRuntime"]
    docs, _ = delivered_objects(all_docs, ir, where, problems)
    workflows = [d for d in docs if d.get("kind") == "WorkflowTemplate"]
    if len(workflows) != 1:
        problems.append(f"{where}: {len(workflows)} WorkflowTemplates")
        _finish(problems, own)
        return {}
    workflow = workflows[0]
    out = {}
    for step, templates in argo_step_templates(workflow, ir, where, problems).items():
        for tpl in templates:
            at = f"{where}: template {tpl['name']}"
            admitted = None
            if "resource" in tpl:
                pod = argo_manifest_pod(tpl, at, problems, runtimes)
                manifest = yaml_reader.load(tpl["resource"]["manifest"])
                label = f"template {tpl['name']}, {manifest.get('kind')} manifest"
                admitted = manifest["metadata"].get("labels") or {}
            else:
                pod = argo_container_pod(workflow, tpl, at, problems)
                label = f"template {tpl['name']}"
            # References exist only in commands (docs/language.md): elsewhere an Argo variable stays
            # as it is, and differs from the IR.
            pod = map_strings(pod, lambda text: argo_flow_spelling(text, references=False))
            pod = _with_commands(pod, argo_flow_spelling)
            out.setdefault(step, []).append(instance(pod, label, admitted=admitted))
    _finish(problems, own)
    return out


# --- Objects beside the pods ---------------------------------------------------------------

# The kinds a target's stream holds for the pods, not the workflow itself.
OBJECT_KINDS = {"ResourceClaimTemplate", "ConfigMap", "TrainingRuntime"}


def delivered_objects(docs, ir, where, problems):
    """The object documents of a YAML stream checked against the IR's objects: each IR object
    exactly once, with its labels and content (a claim template's spec), and nothing else. Returns the
    other documents and the set of (kind, namespace, name) delivered."""
    rest = [d for d in docs if not (isinstance(d, dict) and d.get("kind") in OBJECT_KINDS)]
    found = {}
    for d in docs:
        if isinstance(d, dict) and d.get("kind") in OBJECT_KINDS:
            key = (d["kind"], d["metadata"].get("namespace", ""), d["metadata"]["name"])
            if key in found:
                problems.append(f"{where}: {key} delivered twice")
            found[key] = d
    for o in ir.get("objects", []):
        key = (o["kind"], o.get("namespace", ""), o["name"])
        doc = found.pop(key, None)
        if doc is None:
            problems.append(f"{where}: the IR's {o['kind']} {o['name']} is not delivered")
            continue
        if doc["metadata"].get("labels") != o.get("labels"):
            problems.append(f"{where}: {o['kind']} {o['name']}: labels "
                            f"{json.dumps(doc['metadata'].get('labels'))}, the IR's "
                            f"{json.dumps(o.get('labels'))}")
        if o["kind"] == "ResourceClaimTemplate":
            if doc.get("apiVersion") != "resource.k8s.io/v1" or doc.get("spec") != o["spec"]:
                problems.append(f"{where}: {o['kind']} {o['name']} differs from the IR's")
        elif o["kind"] == "TrainingRuntime":
            problems.extend(trainer_model.runtime_problems(doc, o, f"{where}: {o['name']}"))
    for key in found:
        problems.append(f"{where}: {key} is delivered but not in the IR")
    return rest, {(o["kind"], o.get("namespace", ""), o["name"]) for o in ir.get("objects", [])}


def claim_problems(ir, pods, delivered, where):
    """Every claim template a target's pod names is delivered by the same output, unless the
    flow names an existing one (`@neuron(template=...)`, which flowc never writes)."""
    problems = []
    written = {o["name"] for o in ir.get("objects", []) if o["kind"] == "ResourceClaimTemplate"}
    for step, instances in pods.items():
        for inst in instances:
            pod = inst["pod"]
            namespace = pod.get("metadata", {}).get("namespace", "")
            for claim in pod.get("spec", {}).get("resourceClaims", []):
                name = claim.get("resourceClaimTemplateName")
                if name in written and \
                        ("ResourceClaimTemplate", namespace, name) not in delivered:
                    problems.append(f"{where}: step '{step}' [{inst['label']}] names the claim "
                                    f"template {name} in namespace '{namespace}', which the "
                                    f"output does not deliver")
    return problems


# --- JobSet --------------------------------------------------------------------------------

def jobset_pods(yaml_text, ir, problems=None, where=None):
    """{step: [Instance]} from `flowc compile --target jobset` output. The target substitutes
    params (their defaults) and the run id (the JobSet's name) at compile time: `bind`."""
    own = problems is None
    problems = [] if own else problems
    where = where or ir["flow"]
    docs, _ = delivered_objects(list(yaml_reader.load_all(yaml_text)), ir, where, problems)
    if len(docs) != 1 or not isinstance(docs[0], dict) or docs[0].get("kind") != "JobSet":
        problems.append(f"{where}: expected one JobSet, got {[type(d).__name__ for d in docs]}")
        _finish(problems, own)
        return {}
    jobset = docs[0]
    bind = {p["name"]: item_text(p["default"]) for p in ir["params"] if "default" in p}
    bind["run_id"] = jobset["metadata"]["name"]
    step_of = {s["k8s_name"]: s["name"] for s in ir["steps"]}
    out = {}
    for rjob in jobset["spec"]["replicatedJobs"]:
        if rjob["name"] not in step_of:
            problems.append(f"{where}: replicated Job {rjob['name']} runs no step")
            continue
        pod = jobset_job_pod(jobset, rjob, f"{where}: replicated Job {rjob['name']}", problems)
        out.setdefault(step_of[rjob["name"]], []).append(
            instance(pod, f"replicated Job {rjob['name']}", bind,
                     admitted=jobset["metadata"].get("labels") or {}))
    _finish(problems, own)
    return out


# --- Airflow -------------------------------------------------------------------------------

# What a param or the run id renders as in the Airflow reader's run: its name between two
# private-use characters, spelled back as `{{name}}` in commands, the only place where the flow
# has references; anywhere else it stays, and differs from the IR.
MARK = "\ue000{}\ue001"
MARKED = re.compile("\ue000([A-Za-z_][A-Za-z0-9_]*)\ue001")

# Values for params without a default, by type (a run must give them).
REQUIRED_VALUES = {"str": "required-value 'q' {{x}}", "int": 7, "float": 0.5, "bool": False,
                   "list": ["r1", "r2"]}
# KubernetesPodOperator arguments that change the pod but that the stand-in's build_pod (the
# provider's build_pod_request_obj, as far as flowc uses it) does not read.
UNREAD_POD_KWARGS = frozenset("""
security_context affinity hostnetwork host_aliases dnspolicy dns_config hostname subdomain
schedulername init_containers pod_template_file pod_template_dict
priority_class_name pod_runtime_info_envs termination_grace_period configmaps secrets
automount_service_account_token termination_message_policy active_deadline_seconds
""".split())


def airflow_param_values(ir):
    """The params of a run: defaults, and REQUIRED_VALUES for params without one."""
    return {p["name"]: p["default"] if "default" in p else REQUIRED_VALUES[p["type"]]
            for p in ir["params"]}


def run_airflow_dag(dag_path, params, version="3"):
    """Runs tests/py/airflow_stub/run_dag.py on `dag_path` as on Airflow `version`, the params
    at these values; returns (its JSON output, None) or (None, its stderr)."""
    env = dict(os.environ, FLOWC_STUB_AIRFLOW=version)
    ran = dag_pool.run(RUN_DAG, [dag_path, json.dumps(params)], env=env)
    if ran.returncode != 0:
        return None, ran.stderr
    return json.loads(ran.stdout), None


def split_id(part):
    """'bench-0-1' -> ('bench', [0, 1]): a step or group name and its written-out indexes."""
    name, *indexes = part.split("-")
    return name, [int(i) for i in indexes]


def airflow_place(ir, params, record):
    """The step an Airflow task record (run_dag.py's pods or jobsets) runs, the element its
    {{item}} stands for (None outside a foreach) and a key unique to the run.
    Raises AssertionError, KeyError or ValueError when the task fits no step."""
    steps = {s["name"]: s for s in ir["steps"]}

    def items(foreach_step):
        f = steps[foreach_step]["foreach"]
        values = f["items"] if "items" in f else params[f["param"]]
        return [item_text(v) for v in values]

    def body_of(group_name):
        for name, step in steps.items():
            if step.get("foreach", {}).get("body") == group_name:
                return name
        raise AssertionError(f"no foreach has body {group_name}")

    *groups, local = record["task_id"].split(".")
    step_name, indexes = split_id(local)
    step = steps[step_name]
    chain = step.get("enclosing_foreach", [])
    dynamic = None
    if groups:
        group_name, group_indexes = split_id(groups[-1])
        dynamic = body_of(group_name)
        indexes = group_indexes + indexes
    elif record["map_index"] >= 0:
        dynamic = chain[-1]
    unrolled = [f for f in chain if f != dynamic]
    if len(unrolled) != len(indexes):
        raise AssertionError(f"task {record['task_id']}: {len(indexes)} indexes for "
                             f"written-out foreach steps {unrolled}")
    item = None
    if chain:
        innermost = chain[-1]
        if innermost == dynamic:
            index = record["group_index"] if groups else record["map_index"]
        else:
            index = indexes[unrolled.index(innermost)]
        item = items(innermost)[index]
    key = (step_name, tuple(indexes), record["group_index"], record["map_index"])
    return step_name, item, key


def airflow_expected_runs(ir, params, step_name):
    """How many tasks run a step: once, times the elements of each enclosing foreach."""
    steps = {s["name"]: s for s in ir["steps"]}
    count = 1
    for f in steps[step_name].get("enclosing_foreach", []):
        foreach = steps[f]["foreach"]
        count *= len(foreach["items"] if "items" in foreach else params[foreach["param"]])
    return count


# What a @parallel task creates through KubernetesHook, by kind: (group, version, plural).
AIRFLOW_GANG_APIS = {"JobSet": ("jobset.x-k8s.io", "v1alpha2", "jobsets"),
                     "TrainJob": ("trainer.kubeflow.org", "v1alpha1", "trainjobs")}


def airflow_created_gang_pod(created, runtimes, where, problems):
    """The pod of the JobSet or TrainJob a @parallel task created through KubernetesHook;
    `runtimes`: the objects the DAG's setup tasks created (a TrainJob's TrainingRuntime)."""
    body = created["body"]
    api = AIRFLOW_GANG_APIS.get(body.get("kind"))
    if api != (created["group"], created["version"], created["plural"]):
        problems.append(f"{where}: created {created['group']}/{created['version']} "
                        f"{created['plural']} {body.get('kind')}")
    if created.get("namespace") != body["metadata"].get("namespace"):
        problems.append(f"{where}: created in namespace {created.get('namespace')!r}, "
                        f"its manifest says {body['metadata'].get('namespace')!r}")
    return gang_manifest_pod(body, runtimes, where, problems)


def airflow_record_label(record):
    return record["task_id"] + (
        f"[{record['map_index']}]" if record["map_index"] >= 0 else "") + (
        f" (group {record['group_index']})" if record["group_index"] is not None else "")


def airflow_pods(dag_path, ir, problems=None, where=None):
    """{step: [Instance]}, one per task run, from the DAG file at `dag_path`, executed against
    the stand-in airflow package in a run whose params and run id are their flow spelling.
    Foreach elements are values there: `bind` names the element of each run."""
    own = problems is None
    problems = [] if own else problems
    where = where or ir["flow"]
    params = airflow_param_values(ir)
    ran = dag_pool.run(os.path.abspath(__file__), ["airflow-spelled", dag_path,
                                                   json.dumps(params)],
                       env=dict(os.environ, FLOWC_STUB_AIRFLOW="3"))
    if ran.returncode != 0:
        problems.append(f"{where}: running the DAG:\n{ran.stderr}")
        _finish(problems, own)
        return {}
    out = json.loads(ran.stdout)
    problems.extend(f"{where}: {p}" for p in out["problems"])
    # The objects beside the pods are those the DAG's setup tasks create.
    delivered_objects(out["objects"], ir, f"{where}: the objects the DAG creates", problems)
    pods = {}
    for kind in ("pods", "jobsets"):
        for record in out[kind]:
            label = airflow_record_label(record)
            try:
                step_name, item, _ = airflow_place(ir, params, record)
            except (AssertionError, KeyError, ValueError, IndexError) as e:
                problems.append(f"{where}: cannot place task {record['task_id']}: {e}")
                continue
            admitted = None
            if kind == "pods":
                pod = record["pod"]
            else:
                created = record["jobset"]
                admitted = created["body"]["metadata"].get("labels") or {}
                pod = airflow_created_gang_pod(created, out["objects"], f"{where}: {label}",
                                               problems)
                label += ", " + created["body"].get("kind", "?")
                if not pod:  # the reason is among the problems
                    continue
            pod = _with_commands(pod, lambda arg: MARKED.sub(r"{{\1}}", arg))
            # The element is a value (IR foreach items are not escaped for kubelet): the
            # container receives it as it is.
            pods.setdefault(step_name, []).append(
                instance(pod, label, {"item": item} if item is not None else None, admitted))
    _finish(problems, own)
    return pods


def _airflow_spelled_main(dag_file, values_json):
    """The Airflow reader's subprocess: run_dag.py's run, rendering every template with the
    params and run id as MARK strings. Python callables (the foreach helpers,
    flowc_run_jobset) see the real values, which they need to expand a foreach."""
    import runpy
    sys.path.insert(0, STUB_DIR)
    import run_dag
    from airflow import _stub

    runpy.run_path(dag_file, run_name="flowc_dag")
    if len(_stub.DAGS) != 1:
        raise _stub.StubError("the file defined {} DAGs".format(len(_stub.DAGS)))
    dag = _stub.DAGS[0]
    run_dag.ENV.filters.update(dag.user_defined_filters)
    spelled = {name: MARK.format(name) for name in dag.params}
    given = json.loads(values_json)
    values = {}
    for name, param in dag.params.items():
        values[name] = given[name] if name in given else param.default
        if param.required and name not in given:
            raise _stub.StubError("no value for required param " + name)
    problems = []

    def spelled_context(context):
        context = dict(context)
        if "params" in context:
            context["params"] = spelled
        if "run_id" in context:
            context["run_id"] = MARK.format("run_id")
        return context

    class SpelledTask(run_dag.Task):
        def render_template(self, content, context):
            return super().render_template(content, spelled_context(context))

    run_dag.Task = SpelledTask

    class SpelledRunner(run_dag.Runner):
        def render(self, value, group_index):
            if isinstance(value, str):
                return run_dag.ENV.from_string(value).render(spelled_context(self.context()))
            return super().render(value, group_index)

        def run_pod(self, op, gi):
            unread = sorted((set(op.kwargs) | set(op.mapped or ())) & UNREAD_POD_KWARGS)
            if unread:
                problems.append(f"task {op.task_id}: pod arguments {unread} are not read")
            super().run_pod(op, gi)

    out = SpelledRunner(dag, values).run()
    out["problems"] = problems
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    served = sys.argv[1:] == ["--serve"]
    if served:
        sys.path.insert(0, STUB_DIR)
        import fork_server
        __import__("run_dag")  # what every run imports (kubernetes, jinja2...), imported once
        fork_server.serve()  # returns in each child, sys.argv then a request's
    if len(sys.argv) == 4 and sys.argv[1] == "airflow-spelled":
        _airflow_spelled_main(sys.argv[2], sys.argv[3])
        if served:
            fork_server.exit_served_run()
    else:
        sys.exit("usage: pod_readers.py airflow-spelled DAG_FILE VALUES_JSON")
