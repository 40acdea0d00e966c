"""A fake Kubernetes API server behind the stand-in KubernetesHook, for flowc's Airflow tests.

It keeps objects by (group, version, plural, namespace, name) and answers as the API server
does where flowc's DAG helpers depend on it: 404 for an absent object, 409 for a create of a
name that exists, server-set metadata (uid, resourceVersion, creationTimestamp) on what it
returns, label selectors on lists. A gang (a JobSet, a TrainJob) reports, on each read, the
next status of its kind's script (`FakeKube.gang_script`), so a test decides whether it
runs, completes, fails or hangs.
"""
import copy
import datetime
import itertools

from kubernetes.client.exceptions import ApiException

# A gang that Kueue has queued ("Queued" in a script) is suspended (spec.suspend true) until
# it is admitted; from then on its controller keeps the Suspended condition, False, in its
# place, and appends the terminal one after it (meta.SetStatusCondition):
#   JobSet: kubernetes-sigs/jobset pkg/constants JobSetSuspendedReason "SuspendedJobs",
#     JobSetResumedReason "ResumeJobs"; no terminalState until it has ended;
#   TrainJob: kubeflow/trainer pkg/controller/trainjob_controller.go setSuspendedCondition,
#     reasons "Suspended" and "Resumed"; Complete or Failed copied from its JobSet
#     (plugins/jobset Status).
def suspended(kind, queued, admitted):
    """The Suspended condition of a gang that was queued: True while it waits, else False."""
    if not (queued or admitted):
        return []
    reasons = {"JobSet": ("SuspendedJobs", "ResumeJobs"), "TrainJob": ("Suspended", "Resumed")}
    return [{"type": "Suspended", "status": "True" if queued else "False",
             "reason": reasons[kind][0 if queued else 1]}]


def jobset_status(state, admitted=False):
    """A JobSet's status in `state`: Queued (suspended), Running (no terminal state),
    Completed or Failed; `admitted`: it was queued before."""
    first = suspended("JobSet", state == "Queued", admitted)
    if state in ("Queued", "Running"):
        status = {"replicatedJobsStatus": [{"name": "main", "active": 0 if first and
                                            state == "Queued" else 1}]}
        if first:
            status["conditions"] = first
        return status
    return {"terminalState": state,
            "conditions": first + [{"type": state, "status": "True", "reason": "AllJobsCompleted"
                                    if state == "Completed" else "FailedJobs"}]}


def trainjob_status(state, admitted=False):
    """A TrainJob's status: conditions Complete or Failed once it has ended, after Suspended
    when it was queued."""
    if admitted or state == "Queued":
        first = suspended("TrainJob", state == "Queued", admitted)
        if state in ("Queued", "Running"):
            return {"conditions": first}
        kind = "Complete" if state == "Completed" else "Failed"
        return {"conditions": first + [{"type": kind, "status": "True"}]}
    if state == "Running":
        return {"conditions": [{"type": "Created", "status": "True"}]}
    kind = "Complete" if state == "Completed" else "Failed"
    return {"conditions": [{"type": "Created", "status": "True"}, {"type": kind, "status": "True"}]}


STATUS_OF_KIND = {"JobSet": jobset_status, "TrainJob": trainjob_status}


class FakeKube:
    def __init__(self, gang_script=("Running", "Completed"), defaults=None, clock=None):
        self.objects = {}  # (group, version, plural, namespace, name) -> object
        self.reads = {}  # same key -> how many times read
        self.log = []  # (verb, kind, namespace, name)
        self.gang_script = list(gang_script)
        # Fields the API server fills in on create, by kind (server-side defaults).
        self.defaults = defaults or {}
        self.clock = clock or (lambda: datetime.datetime.now(datetime.timezone.utc))
        self.on_create = None  # a test's hook: called before a create is stored
        self._uid = itertools.count(1)

    # --- helpers -------------------------------------------------------------------------

    def _key(self, group, version, plural, namespace, name):
        return (group, version, plural, namespace or "default", name)

    def put(self, group, version, plural, body):
        """Stores an object as if someone else had created it."""
        meta = body["metadata"]
        key = self._key(group, version, plural, meta.get("namespace"), meta["name"])
        self.objects[key] = self._stored(body)
        return self.objects[key]

    def _stored(self, body):
        obj = copy.deepcopy(body)
        meta = obj["metadata"]
        meta.setdefault("namespace", "default")
        meta["uid"] = "uid-{}".format(next(self._uid))
        meta["resourceVersion"] = str(next(self._uid))
        meta["creationTimestamp"] = self.clock().strftime("%Y-%m-%dT%H:%M:%SZ")
        meta.setdefault("managedFields", [{"manager": "test"}])
        for path, value in self.defaults.get(obj.get("kind"), []):
            node = obj
            for part in path[:-1]:
                node = node[part] if not isinstance(node, list) else node[part]
            node.setdefault(path[-1], value)
        return obj

    def create(self, group, version, plural, namespace, body):
        if self.on_create is not None:
            self.on_create(group, version, plural, namespace, body)
        key = self._key(group, version, plural, namespace, body["metadata"]["name"])
        self.log.append(("create", body.get("kind"), key[3], key[4]))
        if key in self.objects:
            raise ApiException(status=409, reason="AlreadyExists")
        body = dict(body, metadata=dict(body["metadata"], namespace=key[3]))
        self.objects[key] = self._stored(body)
        return copy.deepcopy(self.objects[key])

    def read(self, group, version, plural, namespace, name):
        key = self._key(group, version, plural, namespace, name)
        self.log.append(("read", plural, key[3], name))
        if key not in self.objects:
            raise ApiException(status=404, reason="NotFound")
        obj = copy.deepcopy(self.objects[key])
        status_of = STATUS_OF_KIND.get(obj.get("kind"))
        if status_of is not None:
            count = self.reads.get(key, 0)
            self.reads[key] = count + 1
            state = self.gang_script[min(count, len(self.gang_script) - 1)]
            admitted = state != "Queued" and "Queued" in self.gang_script[:count]
            obj["status"] = status_of(state, admitted)
            if state == "Queued" or admitted:
                obj.setdefault("spec", {})["suspend"] = state == "Queued"
        return obj

    def delete(self, group, version, plural, namespace, name):
        key = self._key(group, version, plural, namespace, name)
        self.log.append(("delete", plural, key[3], name))
        if key not in self.objects:
            raise ApiException(status=404, reason="NotFound")
        del self.objects[key]

    def list(self, group, version, plural, namespace, label_selector=""):
        wanted = dict(part.split("=", 1) for part in label_selector.split(",") if part)
        items = []
        for (g, v, p, ns, _), obj in sorted(self.objects.items()):
            labels = obj["metadata"].get("labels") or {}
            if (g, v, p, ns) == (group, version, plural, namespace or "default") and all(
                    labels.get(k) == val for k, val in wanted.items()):
                items.append(copy.deepcopy(obj))
        return {"kind": "List", "items": items}

    def named(self, plural):
        """The names of stored objects of this plural, sorted."""
        return sorted(key[4] for key in self.objects if key[2] == plural)


class _Response:
    def __init__(self, data):
        self.data = data


class FakeCustomObjectsApi:
    def __init__(self, kube):
        self.kube = kube

    def list_namespaced_custom_object(self, group, version, namespace, plural, label_selector="",
                                      **kwargs):
        return self.kube.list(group, version, plural, namespace, label_selector)


class FakeCoreV1Api:
    """CoreV1Api's namespaced create and read methods, generated per kind as the client does."""

    def __init__(self, kube):
        self.kube = kube

    def __getattr__(self, attr):
        import json
        for verb in ("create", "read"):
            prefix = verb + "_namespaced_"
            if attr.startswith(prefix):
                plural = attr[len(prefix):].replace("_", "") + "s"
                break
        else:
            raise AttributeError(attr)
        if verb == "create":
            def create(namespace, body, **kwargs):
                return self.kube.create("", "v1", plural, namespace, body)
            return create

        def read(name, namespace, _preload_content=True, **kwargs):
            if _preload_content:
                raise AssertionError("flowc reads core objects as raw JSON: a typed model "
                                     "drops fields its client version does not know")
            return _Response(json.dumps(self.kube.read("", "v1", plural, namespace, name)))
        return read


def make_hook_class(kube_ref):
    """A KubernetesHook whose API is the FakeKube that `kube_ref()` returns at call time.

    Its methods have the provider's signatures (hooks/kubernetes.py, provider 10):
    create_custom_object(group, version, plural, body, namespace=None), get_custom_object(group,
    version, plural, name, namespace=None), delete_custom_object(group, version, plural, name,
    namespace=None, **kwargs), get_namespace(), custom_object_client, core_v1_client.
    """

    class KubernetesHook:
        def __init__(self, conn_id=None, kubernetes_conn_id="kubernetes_default", **kwargs):
            self.conn_id = conn_id or kubernetes_conn_id

        @property
        def custom_object_client(self):
            return FakeCustomObjectsApi(kube_ref())

        @property
        def core_v1_client(self):
            return FakeCoreV1Api(kube_ref())

        def get_namespace(self):
            return None

        def create_custom_object(self, group, version, plural, body, namespace=None):
            if isinstance(body, str):
                raise AssertionError("flowc passes bodies as dicts")
            return kube_ref().create(group, version, plural, namespace, body)

        def get_custom_object(self, group, version, plural, name, namespace=None):
            return kube_ref().read(group, version, plural, namespace, name)

        def delete_custom_object(self, group, version, plural, name, namespace=None, **kwargs):
            unknown = set(kwargs) - {"propagation_policy", "grace_period_seconds", "body"}
            if unknown:
                raise TypeError("delete_namespaced_custom_object: {}".format(sorted(unknown)))
            return kube_ref().delete(group, version, plural, namespace, name)

    return KubernetesHook
