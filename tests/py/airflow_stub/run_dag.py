#!/usr/bin/python3
"""Runs a flowc DAG file against the stand-in `airflow` package and prints, as JSON, the pod
every task would create, the gang (JobSet) every @parallel task creates and the objects beside
the pods that the setup tasks create, all against a fake Kubernetes API (fake_kube.py).

usage: run_dag.py DAG_FILE PARAMS_JSON
       run_dag.py --serve     (the tests' fork server, fork_server.py: a run per stdin line)

PARAMS_JSON holds values for params without a default; the others take their defaults. It
evaluates the DAG the way Airflow would run it once: templated fields are rendered with Jinja
(an environment set up as Airflow's: sandboxed, StrictUndefined, no trailing newline kept) with
`params` and `run_id`, TaskFlow tasks run with their op_kwargs rendered, a mapped task group
runs once per element, an expand() argument is rendered as Airflow renders it (mapped_value),
and each pod is built from the
KubernetesPodOperator's arguments as the provider's build_pod_request_obj does (without the
labels Airflow adds of its own), merged with `full_pod_spec` as PodGenerator.reconcile_pods
does. A @parallel task, a sensor in reschedule mode, is poked until it is done, each poke a new
call as Airflow makes it (no task may sleep: time.sleep raises), while the fake API reports its
gang Running, then Completed; the gang must be gone when the task ends. Set
FLOWC_STUB_AIRFLOW=2 to load the file as on Airflow 2, and FLOWC_STUB_K8S_CLIENT to the
kubernetes client version whose models to mimic (k8s_models.py, default 33).
"""
import contextlib
import copy
import inspect
import json
import os
import runpy
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jinja2  # noqa: E402
import jinja2.sandbox  # noqa: E402
import k8s_models  # noqa: E402

k8s_models.install(os.environ.get("FLOWC_STUB_K8S_CLIENT", k8s_models.DEFAULT_VERSION))

import time  # noqa: E402

from kubernetes.client import ApiClient  # noqa: E402
from kubernetes.client import models as k8s  # noqa: E402

import fake_kube  # noqa: E402
from airflow import _stub  # noqa: E402

MAX_POKES = 20

RUN_ID = "manual__2024-01-01T00:00:00+00:00"
ENV = jinja2.sandbox.SandboxedEnvironment(undefined=jinja2.StrictUndefined,
                                          extensions=["jinja2.ext.do"], cache_size=0)

# KubernetesPodOperator._render_nested_template_fields (provider 10.17.1).
NESTED_FIELDS = {
    k8s.V1EnvVar: ("value", "name"),
    k8s.V1ResourceRequirements: ("limits", "requests"),
    k8s.V1Volume: ("name", "persistent_volume_claim", "config_map"),
    k8s.V1VolumeMount: ("name", "sub_path"),
    k8s.V1PersistentVolumeClaimVolumeSource: ("claim_name",),
    k8s.V1ConfigMapVolumeSource: ("name",),
    k8s.V1EnvFromSource: ("config_map_ref",),
    k8s.V1ConfigMapEnvSource: ("name",),
}


class TaskInstance:
    def __init__(self, dag_id, task_id, map_index):
        self.dag_id = dag_id
        self.task_id = task_id
        self.map_index = map_index
        self.try_number = 1


class Task:
    def render_template(self, content, context):
        return ENV.from_string(content).render(context)


class Runner:
    def __init__(self, dag, params):
        self.dag = dag
        self.params = params
        self.results = {}
        self.out = {"pods": [], "jobsets": [], "objects": [], "teardowns": []}
        self.kube = fake_kube.FakeKube()
        self.created = []
        self.kube.on_create = lambda group, version, plural, namespace, body: \
            self.created.append({"group": group, "version": version, "plural": plural,
                                 "namespace": namespace, "body": copy.deepcopy(body)})
        _stub.KUBE = self.kube

    def context(self):
        return {"params": self.params, "run_id": RUN_ID}

    def render(self, value, group_index):
        if isinstance(value, str):
            return ENV.from_string(value).render(self.context())
        if isinstance(value, (_stub.XComArg, _stub.MappedArgument)):
            return self.resolve(value, group_index)  # resolved, never rendered
        if isinstance(value, list):
            return [self.render(v, group_index) for v in value]
        if isinstance(value, tuple):
            return tuple(self.render(v, group_index) for v in value)
        if isinstance(value, dict):
            return {k: self.render(v, group_index) for k, v in value.items()}
        fields = NESTED_FIELDS.get(type(value))
        if fields:
            value = copy.copy(value)
            for field in fields:
                setattr(value, field, self.render(getattr(value, field), group_index))
        return value

    def resolve(self, value, group_index):
        if isinstance(value, _stub.MappedArgument):
            return self.group_values(value.group)[group_index]
        if isinstance(value, _stub.XComArg):
            op = value.operator
            if op.mapped is not None:
                raise _stub.StubError("flowc never maps over a mapped task's output")
            key = (op.task_id, group_index)
            if key not in self.results:
                self.results[key] = self.call(op, group_index, -1, {})
            return self.results[key]
        return value

    def group_values(self, group):
        values = self.resolve(group.mapped["item"], None)
        if not isinstance(values, list):
            raise _stub.StubError("group {} expands over {!r}".format(group.group_id, values))
        return values

    def call(self, op, group_index, map_index, mapped):
        kwargs = self.render(op.op_kwargs, group_index)
        kwargs.update(mapped)
        context = {**self.context(), "task": Task(),
                   "ti": TaskInstance(self.dag.dag_id, op.task_id, map_index)}
        # As Airflow's KeywordParameters.determine: all of the context for a function
        # taking **kwargs, else only the keys it names.
        signature = inspect.signature(op.fn).parameters
        if not any(p.kind == p.VAR_KEYWORD for p in signature.values()):
            context = {k: v for k, v in context.items() if k in signature}
        with contextlib.redirect_stdout(sys.stderr):  # a task's log, not this output
            return op.fn(**{**context, **kwargs})

    def record(self, kind, op, group_index, map_index, value):
        self.out[kind].append({"task_id": op.task_id, "group_index": group_index,
                               "map_index": map_index, kind[:-1]: value})

    def run(self):
        def no_sleep(seconds):
            raise _stub.StubError("a task slept {} s in a loop, holding its worker slot".format(
                seconds))
        time.sleep = no_sleep
        for op in self.dag.tasks:
            group = op.group
            if group is not None and group.mapped is not None:
                group_indexes = range(len(self.group_values(group)))
            else:
                group_indexes = [None]
            for gi in group_indexes:
                if isinstance(op, _stub.PythonTask):
                    self.run_python(op, gi)
                elif isinstance(op, _stub.KubernetesPodOperator):
                    self.run_pod(op, gi)
                else:
                    raise _stub.StubError("unknown task {}".format(op.task_id))
        return self.out

    def run_python(self, op, gi):
        name = op.fn.__name__
        if name == "flowc_create_objects":
            before = len(self.created)
            self.call(op, gi, -1, {})
            self.out["objects"].extend(c["body"] for c in self.created[before:])
            return
        if name == "flowc_gang_teardown":
            if not op.is_teardown or op.kwargs.get("trigger_rule") != "all_done_setup_success":
                raise _stub.StubError("{} is not a teardown".format(op.task_id))
            self.call(op, gi, -1, {})
            self.out["teardowns"].append(op.task_id)
            return
        if name != "flowc_gang":
            return  # helpers run when a task needs their value
        if not op.sensor or op.kwargs.get("mode") != "reschedule":
            raise _stub.StubError("{} waits holding a worker slot".format(op.task_id))
        if op.mapped is None:
            self.run_gang(op, gi, -1, {})
            return
        (key, values), = op.mapped.items()
        for mi, value in enumerate(self.resolve(values, gi)):
            # op_kwargs, where `key` lands, is a TaskFlow task's templated field.
            self.run_gang(op, gi, mi, {key: self.mapped_value(values, value, True, gi)})

    def mapped_value(self, values, value, templated, gi):
        """An element of an expand() argument as the task's field receives it: rendered when it
        comes from a literal list and lands in a templated field, as it is when it was resolved
        at run time (an XCom). MappedOperator.render_template_fields renders the unmapped task's
        fields skipping the ids DictOfListsExpandInput.resolve returns, which are those of every
        key but the literal ones (airflow/models/expandinput.py in 2.10, task-sdk/src/airflow/
        sdk/definitions/_internal/expandinput.py in 3.x; a decorated task's expand() arguments
        go to op_kwargs: DecoratedMappedOperator._expand_mapped_kwargs)."""
        if isinstance(values, list) and templated:
            return self.render(value, gi)
        return value

    def run_gang(self, op, gi, mi, mapped):
        """Pokes the sensor as Airflow does in reschedule mode: one call per poke."""
        before = len(self.created)
        for _ in range(MAX_POKES):
            if self.call(op, gi, mi, mapped):
                break
        else:
            raise _stub.StubError("{} is not done after {} pokes".format(op.task_id, MAX_POKES))
        created = self.created[before:]
        if len(created) != 1:
            raise _stub.StubError("{} created {} objects".format(op.task_id, len(created)))
        name = created[0]["body"]["metadata"]["name"]
        if name in self.kube.named(created[0]["plural"]):
            raise _stub.StubError("{} did not delete its gang".format(op.task_id))
        self.record("jobsets", op, gi, mi, created[0])

    def run_pod(self, op, gi):
        if op.mapped is None:
            self.record("pods", op, gi, -1, build_pod(self.render(op.kwargs, gi)))
            return
        (key, values), = op.mapped.items()
        for mi, value in enumerate(self.resolve(values, gi)):
            kwargs = self.render(op.kwargs, gi)
            kwargs[key] = self.mapped_value(values, value, key in _stub.KPO_TEMPLATE_FIELDS, gi)
            self.record("pods", op, gi, mi, build_pod(kwargs))


def merge_objects(base_obj, client_obj):
    """providers/cncf/kubernetes/pod_generator.py merge_objects: the client's fields, and the
    base's where the client's are unset (falsy)."""
    if not base_obj:
        return client_obj
    if not client_obj:
        return base_obj
    client_obj_cp = copy.deepcopy(client_obj)
    if isinstance(base_obj, dict) and isinstance(client_obj_cp, dict):
        base_obj_cp = copy.deepcopy(base_obj)
        base_obj_cp.update(client_obj_cp)
        return base_obj_cp
    for base_key in base_obj.to_dict():
        base_val = getattr(base_obj, base_key, None)
        if not getattr(client_obj, base_key, None) and base_val is not None:
            setattr(client_obj_cp, base_key, base_val)
    return client_obj_cp


def extend_object_field(base_obj, client_obj, field_name):
    """pod_generator.py extend_object_field: the base's list, then the client's."""
    client_obj_cp = copy.deepcopy(client_obj)
    base_field = getattr(base_obj, field_name, None)
    client_field = getattr(client_obj, field_name, None)
    if not base_field:
        return client_obj_cp
    if not client_field:
        setattr(client_obj_cp, field_name, base_field)
        return client_obj_cp
    setattr(client_obj_cp, field_name, base_field + client_field)
    return client_obj_cp


def reconcile_pods(base_pod, client_pod):
    """PodGenerator.reconcile_pods / reconcile_specs / reconcile_containers (provider 10),
    for the pod KubernetesPodOperator.build_pod_request_obj builds (`client_pod`) over its
    full_pod_spec (`base_pod`)."""
    client = copy.deepcopy(client_pod)
    base_spec, spec = base_pod.spec, client.spec
    if base_spec and spec:
        if base_spec.containers:
            containers = spec.containers
            first = containers[0]
            for field in ("volume_mounts", "env", "env_from", "ports", "volume_devices"):
                first = extend_object_field(base_spec.containers[0], first, field)
            containers = [merge_objects(base_spec.containers[0], first)] + containers[1:]
            spec.containers = containers
        spec = extend_object_field(base_spec, spec, "init_containers")
        spec = extend_object_field(base_spec, spec, "volumes")
        client.spec = merge_objects(base_spec, spec)
    elif base_spec:
        client.spec = base_spec
    if base_pod.metadata and client.metadata:
        client.metadata = merge_objects(base_pod.metadata, client.metadata)
    elif base_pod.metadata:
        client.metadata = base_pod.metadata
    return merge_objects(base_pod, client)


def build_pod(kw):
    """The pod KubernetesPodOperator.build_pod_request_obj makes of these arguments."""
    container = k8s.V1Container(
        name=kw.get("base_container_name") or "base",
        image=kw.get("image"),
        command=kw.get("cmds") or None,
        args=kw.get("arguments") or None,
        env=kw.get("env_vars") or None,
        env_from=kw.get("env_from") or None,
        resources=kw.get("container_resources"),
        volume_mounts=kw.get("volume_mounts") or None,
        image_pull_policy=kw.get("image_pull_policy"),
        security_context=kw.get("container_security_context"),
        ports=kw.get("ports") or None,
    )
    pod = k8s.V1Pod(
        metadata=k8s.V1ObjectMeta(namespace=kw.get("namespace"), labels=kw.get("labels") or None,
                                  annotations=kw.get("annotations") or None),
        spec=k8s.V1PodSpec(
            containers=[container],
            service_account_name=kw.get("service_account_name"),
            node_selector=kw.get("node_selector") or None,
            tolerations=kw.get("tolerations") or None,
            volumes=kw.get("volumes") or None,
            image_pull_secrets=kw.get("image_pull_secrets") or None,
        ),
    )
    if kw.get("full_pod_spec") is not None:
        pod = reconcile_pods(kw["full_pod_spec"], pod)
    return prune(ApiClient().sanitize_for_serialization(pod))


def prune(value):
    if isinstance(value, dict):
        out = {k: prune(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in ({}, None)}
    if isinstance(value, list):
        return [prune(v) for v in value]
    return value


def main():
    dag_file, params_json = sys.argv[1], sys.argv[2]
    runpy.run_path(dag_file, run_name="flowc_dag")
    if len(_stub.DAGS) != 1:
        raise _stub.StubError("the file defined {} DAGs".format(len(_stub.DAGS)))
    dag = _stub.DAGS[0]
    ENV.filters.update(dag.user_defined_filters)
    given = json.loads(params_json)
    params = {}
    for name, param in dag.params.items():
        params[name] = given[name] if name in given else param.default
        if param.required and name not in given:
            raise _stub.StubError("no value for required param " + name)
    out = Runner(dag, params).run()
    out["dag"] = {
        "dag_id": dag.dag_id, "schedule": dag.schedule, "catchup": dag.catchup,
        "timezone": str(dag.start_date.tzinfo),
        "tags": dag.tags,
        "params": {name: {"default": None if p.required else p.default,
                          "required": p.required, **p.schema}
                   for name, p in dag.params.items()},
    }
    out["run_id"] = RUN_ID
    out["edges"] = dag.edges
    out["groups"] = {g.group_id: [t.task_id for t in g.tasks] for g in dag.groups}
    out["task_ids"] = [t.task_id for t in dag.tasks]
    out["setups"] = {t.task_id: t.op_kwargs["objects"] for t in dag.tasks
                     if isinstance(t, _stub.PythonTask) and t.fn.__name__ == "flowc_create_objects"}
    out["sensors"] = {t.task_id: {k: v for k, v in t.kwargs.items() if k != "retry_delay"}
                      for t in dag.tasks if getattr(t, "sensor", False)}
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    served = sys.argv[1:] == ["--serve"]
    if served:
        import fork_server
        fork_server.serve()  # returns in each child, sys.argv then a request's
    main()
    if served:
        fork_server.exit_served_run()
