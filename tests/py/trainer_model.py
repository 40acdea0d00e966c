"""A model of how Kubeflow Trainer v2.3 and the JobSet controller build a TrainJob's pods.

Used by tests/py/test_trainjob.py (the Trainer-built pod against the IR's pod) and by
pod_readers.argo_manifest_pod (the pod of the TrainJob an Argo resource template creates).
Each rule is read from the source named beside it (kubeflow/trainer at the v2.3 API, the one
compiler/validate/schemas bundles; kubernetes-sigs/jobset; k8s.io/api, k8s.io/kubernetes):

  trainer_pod(trainjob, runtime)   the trainer job's pod template of the JobSet the Trainer
      creates: the runtime's JobSet template, the TrainJob's runtime patches merged into the
      trainer job's template, the TrainJob's `trainer` fields on the container `node`, then the
      torch policy's env and port;
  torch_additions(trainjob, ...)   what the torch policy adds to that container;
  jobset_pod(jobset_name, pod, index)   the pod the JobSet and Job controllers make from that
      template for node `index` (labels, annotations, hostname, subdomain);
  resolve_env(pod)   the container's env as kubelet expands it for that pod;
  argo_condition_matches(...)   Argo's resource-template condition test on an object.

Objects are dicts as PyYAML reads them; nothing here knows how flowc wrote them.
"""
import copy
import re

TRAINER_JOB = "node"        # pkg/constants Node: the trainer job's container (and, in the
TRAINER_CONTAINER = "node"  # Trainer's own runtimes, its replicated job)
ANCESTOR_LABEL = "trainer.kubeflow.org/trainjob-ancestor-step"  # pkg/constants
ANCESTOR_TRAINER = "trainer"
CONTAINER_TRAINER_PORT = 29400  # pkg/constants ContainerTrainerPort
COMPLETION_INDEX = "metadata.annotations['batch.kubernetes.io/job-completion-index']"
JOBSET_NAME_LABEL = "jobset.sigs.k8s.io/jobset-name"

# The Trainer's own torch-distributed ClusterTrainingRuntime, as its manifests ship it
# (kubeflow/trainer manifests/base/runtimes/torch_distributed.yaml), the runtime a TrainJob
# with `runtimeRef: {kind: ClusterTrainingRuntime, name: torch-distributed}` gets.
TORCH_DISTRIBUTED = {
    "apiVersion": "trainer.kubeflow.org/v1alpha1",
    "kind": "ClusterTrainingRuntime",
    "metadata": {"name": "torch-distributed"},
    "spec": {
        "mlPolicy": {"numNodes": 1, "torch": {}},
        "template": {"spec": {"replicatedJobs": [{
            "name": "node",
            "template": {
                "metadata": {"labels": {ANCESTOR_LABEL: ANCESTOR_TRAINER}},
                "spec": {"template": {"spec": {"containers": [{
                    "name": "node",
                    "image": "pytorch/pytorch:2.7.1-cuda12.6-cudnn9-runtime",
                    "command": ["/bin/bash", "-c", 'echo "Torch Distributed Runtime"\n'],
                }]}}},
            },
        }]}},
    },
}
CLUSTER_RUNTIMES = {"torch-distributed": TORCH_DISTRIBUTED}


class ModelError(Exception):
    """The objects do not fit what the Trainer needs (it would reject them or do nothing)."""


# --- strategic merge patch, as k8s.io/apimachinery strategicpatch applies it ---------------

# The patch merge keys of the lists inside a batch/v1 JobTemplateSpec (k8s.io/api core/v1
# types.go `patchStrategy:"merge" patchMergeKey:...`). A list not named here (tolerations,
# command, args, ...) has no patch strategy: the patch's list replaces the original.
MERGE_KEYS = {"containers": "name", "initContainers": "name", "ephemeralContainers": "name",
              "volumes": "name", "imagePullSecrets": "name", "env": "name",
              "volumeMounts": "mountPath", "ports": "containerPort", "resourceClaims": "name",
              "schedulingGates": "name", "hostAliases": "ip", "topologySpreadConstraints":
              "topologyKey"}


def strategic_merge(original, patch, field=None):
    """`patch` merged into `original` (no `$patch` directives: flowc writes none)."""
    if isinstance(original, dict) and isinstance(patch, dict):
        out = dict(original)
        for key, value in patch.items():
            if value is None:
                out.pop(key, None)
            elif key in out:
                out[key] = strategic_merge(out[key], value, key)
            else:
                out[key] = copy.deepcopy(value)
        return out
    if isinstance(original, list) and isinstance(patch, list) and field in MERGE_KEYS:
        key = MERGE_KEYS[field]
        out = [copy.deepcopy(x) for x in original]
        for item in patch:
            for i, x in enumerate(out):
                if x.get(key) == item.get(key):
                    out[i] = strategic_merge(x, item)
                    break
            else:
                out.append(copy.deepcopy(item))
        return out
    return copy.deepcopy(patch)


# --- the Trainer --------------------------------------------------------------------------

def upsert(items, new, key):
    """pkg/apply UpsertEnvVars / UpsertPort: replace the item with the same key in place,
    else append."""
    for i, item in enumerate(items):
        if item.get(key) == new.get(key):
            items[i] = new
            return
    items.append(new)


def runtime_of(trainjob, runtimes):
    """The runtime a TrainJob references: a namespaced TrainingRuntime among `runtimes` (the
    documents delivered with it), or a ClusterTrainingRuntime this model knows. The webhook
    refuses a TrainJob whose runtime does not exist (core/trainingruntime.go ValidateObjects)."""
    ref = trainjob["spec"]["runtimeRef"]
    if ref.get("apiGroup", "trainer.kubeflow.org") != "trainer.kubeflow.org":
        raise ModelError(f"runtimeRef.apiGroup {ref.get('apiGroup')}")
    kind = ref.get("kind", "ClusterTrainingRuntime")  # the CRD's default
    if kind == "ClusterTrainingRuntime":
        if ref["name"] not in CLUSTER_RUNTIMES:
            raise ModelError(f"no model of ClusterTrainingRuntime {ref['name']}")
        return CLUSTER_RUNTIMES[ref["name"]]
    namespace = trainjob["metadata"].get("namespace", "")
    for r in runtimes:
        if r.get("kind") == "TrainingRuntime" and r["metadata"]["name"] == ref["name"] and \
                r["metadata"].get("namespace", "") == namespace:
            return r
    raise ModelError(f"TrainingRuntime {ref['name']} is not delivered in namespace "
                     f"'{namespace}' (a TrainJob must be in its runtime's namespace)")


def trainer_job(trainjob, runtimes):
    """The trainer's replicated job of the JobSet the Trainer creates for `trainjob`, and the
    pod count it gets."""
    runtime = runtime_of(trainjob, runtimes)
    jobs = copy.deepcopy(runtime["spec"]["template"]["spec"]["replicatedJobs"])
    # core/trainingruntime.go mergeRuntimePatches: each patch's replicated job template,
    # strategic-merged (as a batchv1.JobTemplateSpec) into the runtime's job of that name.
    for patch in trainjob["spec"].get("runtimePatches", []):
        template = (patch.get("trainingRuntimeSpec") or {}).get("template") or {}
        for rjob_patch in (template.get("spec") or {}).get("replicatedJobs", []):
            if "template" not in rjob_patch:
                continue
            for job in jobs:
                if job["name"] == rjob_patch["name"]:
                    job["template"] = strategic_merge(job["template"], rjob_patch["template"])
    trainers = [j for j in jobs if (j["template"].get("metadata") or {}).get(
        "labels", {}).get(ANCESTOR_LABEL) == ANCESTOR_TRAINER]
    if len(trainers) != 1:
        raise ModelError(f"{len(trainers)} replicated jobs carry {ANCESTOR_LABEL}: trainer")
    job = trainers[0]
    ml_policy = runtime["spec"].get("mlPolicy") or {}
    if "torch" not in ml_policy:
        raise ModelError("the runtime has no torch policy: no PET_* env, no numProcPerNode")
    trainer = trainjob["spec"].get("trainer") or {}
    # newRuntimeInfo: the trainer's pod count is mlPolicy.numNodes; torch.go EnforceMLPolicy
    # replaces it with the TrainJob's trainer.numNodes; jobset/builder.go Trainer sets
    # replicas 1 and parallelism = completions = that count.
    count = trainer.get("numNodes", ml_policy.get("numNodes", 1))
    job["replicas"] = 1
    job["template"]["spec"]["parallelism"] = count
    job["template"]["spec"]["completions"] = count
    return job, count


def trainer_pod(trainjob, runtimes):
    """The pod template of the trainer job, as the Trainer writes it into the JobSet."""
    job, count = trainer_job(trainjob, runtimes)
    trainer = trainjob["spec"].get("trainer") or {}
    pod = job["template"]["spec"]["template"]
    containers = pod["spec"]["containers"]
    nodes = [c for c in containers if c["name"] == TRAINER_CONTAINER]
    if len(nodes) != 1:
        raise ModelError(f"the trainer job has no container named '{TRAINER_CONTAINER}': the "
                         f"Trainer would give the TrainJob's trainer fields to none")
    node = nodes[0]
    # jobset/builder.go Trainer: image, command, args replace the container's; requests
    # and limits of resourcesPerNode become its resources (core/trainingruntime.go copies
    # resourcesPerNode whole over the container's resources first).
    for key in ("image", "command", "args"):
        if key in trainer:
            node[key] = copy.deepcopy(trainer[key])
    if "resourcesPerNode" in trainer:
        node["resources"] = {k: v for k, v in trainer["resourcesPerNode"].items()
                             if k in ("requests", "limits")}
    # torch.go EnforceMLPolicy: trainer.env upserted, then the PET_* env, then the port.
    env = node.setdefault("env", [])
    for var in trainer.get("env", []):
        upsert(env, copy.deepcopy(var), "name")
    name = trainjob["metadata"]["name"]
    for var in torch_env(name, count, trainer):
        upsert(env, var, "name")
    upsert(node.setdefault("ports", []), {"containerPort": CONTAINER_TRAINER_PORT},
           "containerPort")
    return pod, count


def torch_env(trainjob_name, count, trainer):
    """The torch policy's env for torchrun (torch.go EnforceMLPolicy; pkg/constants
    TorchEnv*): node count, processes per node, this node's rank, and node 0's address."""
    if "numProcPerNode" not in trainer:
        raise ModelError("numProcPerNode unset: the torch policy's default is not modelled")
    return [
        {"name": "PET_NNODES", "value": str(count)},
        {"name": "PET_NPROC_PER_NODE", "value": str(trainer["numProcPerNode"])},
        {"name": "PET_NODE_RANK", "valueFrom": {"fieldRef": {"fieldPath": COMPLETION_INDEX}}},
        {"name": "PET_MASTER_ADDR",
         "value": f"{trainjob_name}-{TRAINER_JOB}-0-0.{trainjob_name}"},
        {"name": "PET_MASTER_PORT", "value": str(CONTAINER_TRAINER_PORT)},
    ]


def without_torch_additions(pod, trainjob, count, problems, where):
    """`pod` (trainer_pod's) without what the torch policy added, after checking that it added
    exactly that: the PET_* env last, in order, and container port 29400 last."""
    out = copy.deepcopy(pod)
    node = next(c for c in out["spec"]["containers"] if c["name"] == TRAINER_CONTAINER)
    expected = torch_env(trainjob["metadata"]["name"], count, trainjob["spec"]["trainer"])
    if node.get("env", [])[-len(expected):] != expected:
        problems.append(f"{where}: the torch policy's env is not last: {node.get('env')}")
    node["env"] = node["env"][:-len(expected)]
    if not node["env"]:
        del node["env"]
    if node.get("ports", [])[-1:] != [{"containerPort": CONTAINER_TRAINER_PORT}]:
        problems.append(f"{where}: container port {CONTAINER_TRAINER_PORT} is not last")
    node["ports"] = node["ports"][:-1]
    if not node["ports"]:
        del node["ports"]
    return out


# --- the JobSet and Job controllers -------------------------------------------------------

def jobset_pod(jobset_name, template, index, subdomain=None):
    """The pod of completion index `index` of the trainer job's one Job: the JobSet controller
    labels and annotates it with the JobSet's name and gives it the JobSet's subdomain
    (kubernetes-sigs/jobset pkg/controllers/jobset_controller.go labelAndAnnotateObject,
    constructJob; GenJobName `<jobset>-<rjob>-<job index>`); the Job controller of an Indexed
    Job annotates the index and names the host `<job>-<index>` (k8s.io/kubernetes
    pkg/controller/job/indexed_job_utils.go)."""
    pod = copy.deepcopy(template)
    meta = pod.setdefault("metadata", {})
    meta.setdefault("labels", {})[JOBSET_NAME_LABEL] = jobset_name
    meta.setdefault("annotations", {})["batch.kubernetes.io/job-completion-index"] = str(index)
    pod["spec"]["hostname"] = f"{jobset_name}-{TRAINER_JOB}-0-{index}"
    pod["spec"]["subdomain"] = subdomain or jobset_name
    return pod


FIELD_PATH = re.compile(r"metadata\.(labels|annotations)\['([^']+)'\]")


def resolve_env(pod, container=TRAINER_CONTAINER):
    """{name: value} of the container's env in `pod` as kubelet sets it: field references
    read from the pod's metadata, `$(VAR)` expanded from variables defined earlier, `$$` a
    `$` (k8s.io/kubernetes third_party/forked/golang/expansion)."""
    node = next(c for c in pod["spec"]["containers"] if c["name"] == container)
    values = {}
    for var in node.get("env", []):
        if "valueFrom" in var:
            m = FIELD_PATH.fullmatch(var["valueFrom"]["fieldRef"]["fieldPath"])
            values[var["name"]] = pod["metadata"][m.group(1)][m.group(2)] if m else None
        else:
            values[var["name"]] = expand(var.get("value", ""), values)
    return values


def expand(text, values):
    out = []
    i = 0
    while i < len(text):
        if text[i] == "$" and i + 1 < len(text):
            if text[i + 1] == "$":
                out.append("$")
                i += 2
                continue
            close = text.find(")", i + 2)
            if text[i + 1] == "(" and close != -1 and text[i + 2:close] in values:
                out.append(values[text[i + 2:close]])
                i = close + 1
                continue
        out.append(text[i])
        i += 1
    return "".join(out)


# --- Argo's resource-template conditions --------------------------------------------------

# A label key (k8s.io/apimachinery validation IsQualifiedName): labels.Parse refuses others.
QUALIFIED_NAME = re.compile(r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
                            r"[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$")
REQUIREMENT = re.compile(r"^\s*(?P<key>[^\s!=<>(),]+)\s*(?P<op>==|!=|=|>|<| in | notin )\s*"
                         r"(?P<value>\([^)]*\)|[^\s,()]+)\s*$")


def parse_condition(condition):
    """The requirements of a success or failure condition, as labels.Parse splits it: a
    comma-separated list of `key op value` whose keys are label keys of at most 63 characters
    in their name part. Raises ModelError for anything Argo would fail to parse."""
    requirements = []
    for part in re.split(r",(?![^()]*\))", condition):
        m = REQUIREMENT.match(part)
        if not m:
            raise ModelError(f"cannot parse requirement {part!r}")
        key = m.group("key")
        if not QUALIFIED_NAME.match(key) or len(key.split("/")[-1]) > 63:
            raise ModelError(f"{key!r} is not a label key: labels.Parse refuses it")
        value = m.group("value")
        values = [v.strip() for v in value[1:-1].split(",")] if value.startswith("(") \
            else [value]
        requirements.append((key, m.group("op").strip(), values))
    return requirements


def gjson_get(obj, path):
    """gjson.Get on a dotted path of keys and array indexes: (exists, value as a string)."""
    for part in path.split("."):
        if isinstance(obj, list) and part.isdigit() and int(part) < len(obj):
            obj = obj[int(part)]
        elif isinstance(obj, dict) and part in obj:
            obj = obj[part]
        else:
            return False, ""
    if isinstance(obj, bool):
        return True, "true" if obj else "false"
    return True, str(obj)


def requirement_matches(obj, requirement):
    """labels.Requirement.Matches over gjson lookups (workflow/executor/resource.go
    gjsonLabels): ==, = and in need the key; != and notin match a missing key."""
    key, op, values = requirement
    exists, value = gjson_get(obj, key)
    if op in ("==", "=", "in"):
        return exists and value in values
    if op in ("!=", "notin"):
        return not exists or value not in values
    if op in (">", "<"):
        if not exists or not re.fullmatch(r"-?\d+", value):
            return False
        return int(value) > int(values[0]) if op == ">" else int(value) < int(values[0])
    raise ModelError(f"operator {op}")


def argo_resource_state(obj, success, failure):
    """What Argo's wait makes of the object now (resource.go matchConditions): "failed" when
    any failure requirement matches, "succeeded" when every success requirement does, else
    "waiting"."""
    if any(requirement_matches(obj, r) for r in parse_condition(failure)):
        return "failed"
    if all(requirement_matches(obj, r) for r in parse_condition(success)):
        return "succeeded"
    return "waiting"


# --- flowc's TrainingRuntime against the IR's ---------------------------------------------

def runtime_problems(doc, ir_object, where):
    """Differences between a delivered TrainingRuntime and the IR's object (`--target ir`
    `objects[]`): the torch policy over numNodes, one replicated job that is the trainer's,
    with N indexed pods, and the IR's pod as its pod template (restartPolicy Never)."""
    problems = []
    want = ir_object["trainingRuntime"]
    if doc.get("apiVersion") != "trainer.kubeflow.org/v1alpha1":
        problems.append(f"{where}: apiVersion {doc.get('apiVersion')}")
    spec = doc.get("spec", {})
    if spec.get("mlPolicy") != {"numNodes": want["numNodes"], "torch": {}}:
        problems.append(f"{where}: mlPolicy {spec.get('mlPolicy')}")
    jobs = spec.get("template", {}).get("spec", {}).get("replicatedJobs", [])
    if len(jobs) != 1 or jobs[0].get("name") != TRAINER_JOB:
        problems.append(f"{where}: replicated jobs {[j.get('name') for j in jobs]}")
        return problems
    template = jobs[0]["template"]
    annotations = {"alpha.jobset.sigs.k8s.io/exclusive-topology": want["exclusiveTopology"]} \
        if "exclusiveTopology" in want else None
    meta = template.get("metadata", {})
    if meta.get("labels") != {ANCESTOR_LABEL: ANCESTOR_TRAINER} or \
            meta.get("annotations") != annotations:
        problems.append(f"{where}: trainer job metadata {meta}")
    job = {k: v for k, v in template["spec"].items() if k != "template"}
    expected_job = {"completionMode": "Indexed", "parallelism": want["numNodes"],
                    "completions": want["numNodes"], "backoffLimit": 0}
    if job != expected_job:
        problems.append(f"{where}: trainer job spec {job}, expected {expected_job}")
    pod = copy.deepcopy(template["spec"]["template"])
    if pod["spec"].pop("restartPolicy", None) != "Never":
        problems.append(f"{where}: restartPolicy is not Never")
    if "namespace" in doc["metadata"]:
        pod.setdefault("metadata", {})["namespace"] = doc["metadata"]["namespace"]
        pod["metadata"] = {"namespace": pod["metadata"].pop("namespace"), **pod["metadata"]}
    if pod != want["pod"]:
        problems.append(f"{where}: the runtime's pod differs from the IR's: {pod} vs {want['pod']}")
    return problems
