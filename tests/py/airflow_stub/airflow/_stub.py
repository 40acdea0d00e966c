"""The stand-in's implementation: records the DAG a file builds, checks it as Airflow would.

Nothing here runs a task; tests/py/airflow_stub/run_dag.py evaluates what was recorded.
"""
import datetime

# KubernetesPodOperator.__init__'s keyword parameters in provider 10.17.1
# (providers/cncf/kubernetes/operators/pod.py), as listed in flowc's fact sheet.
KPO_KWARGS = frozenset("""
kubernetes_conn_id namespace image name random_name_suffix cmds arguments ports volume_mounts
volumes env_vars env_from secrets in_cluster cluster_context labels reattach_on_restart
startup_timeout_seconds startup_check_interval_seconds schedule_timeout_seconds get_logs
base_container_name base_container_status_polling_interval init_container_logs container_logs
image_pull_policy annotations container_resources affinity config_file node_selector
image_pull_secrets service_account_name automount_service_account_token hostnetwork host_aliases
tolerations security_context container_security_context dnspolicy dns_config hostname subdomain
schedulername full_pod_spec init_containers log_events_on_failure do_xcom_push pod_template_file
pod_template_dict priority_class_name pod_runtime_info_envs termination_grace_period configmaps
skip_on_exit_code deferrable poll_interval log_pod_spec_on_failure on_finish_action
is_delete_operator_pod termination_message_policy active_deadline_seconds callbacks
progress_callback logging_interval trigger_kwargs container_name_log_prefix_enabled log_formatter
""".split())

# BaseOperator keyword parameters a DAG may pass (a subset of the real list).
BASE_KWARGS = frozenset("""
task_id owner email email_on_retry email_on_failure retries retry_delay
retry_exponential_backoff max_retry_delay start_date end_date depends_on_past
wait_for_downstream dag params default_args priority_weight weight_rule queue pool pool_slots
sla execution_timeout on_execute_callback on_failure_callback on_success_callback
on_retry_callback trigger_rule resources run_as_user task_concurrency max_active_tis_per_dag
executor_config do_xcom_push inlets outlets task_group doc doc_md doc_json doc_yaml doc_rst
map_index_template
""".split())

# BaseSensorOperator keyword parameters (airflow/sensors/base.py; the Task SDK's
# airflow/sdk/bases/sensor.py adds silent_fail and never_fail).
SENSOR_KWARGS = frozenset("""
poke_interval timeout soft_fail mode exponential_backoff max_wait silent_fail never_fail
""".split())

# What must go to partial(), never to expand() (dynamic-task-mapping docs).
NOT_MAPPABLE = frozenset({"task_id", "queue", "pool", "retries", "retry_delay",
                          "execution_timeout", "trigger_rule"})

KPO_TEMPLATE_FIELDS = ("image", "name", "hostname", "cmds", "annotations", "arguments",
                       "env_vars", "labels", "config_file", "pod_template_file",
                       "pod_template_dict", "namespace", "container_resources", "volumes",
                       "volume_mounts", "cluster_context", "env_from", "node_selector",
                       "kubernetes_conn_id", "base_container_name", "trigger_kwargs")


class StubError(Exception):
    pass


class _State:
    dag = None
    groups = []  # the task groups being defined, innermost last


def _current_dag():
    if _State.dag is None:
        raise StubError("a task was created outside `with DAG(...)`")
    return _State.dag


class Node:
    """Anything that takes part in >> (tasks and task groups)."""

    def node_id(self):
        raise NotImplementedError

    def __rshift__(self, other):
        for target in other if isinstance(other, list) else [other]:
            _current_dag().edges.append((self.node_id(), _node(target).node_id()))
        return other

    def __lshift__(self, other):
        for source in other if isinstance(other, list) else [other]:
            _current_dag().edges.append((_node(source).node_id(), self.node_id()))
        return other

    def __rrshift__(self, other):
        for source in other if isinstance(other, list) else [other]:
            _current_dag().edges.append((_node(source).node_id(), self.node_id()))
        return self

    def __rlshift__(self, other):
        for target in other if isinstance(other, list) else [other]:
            _current_dag().edges.append((self.node_id(), _node(target).node_id()))
        return self


def _node(value):
    if isinstance(value, XComArg):
        return value.operator
    if isinstance(value, Node):
        return value
    raise StubError("cannot set a dependency on {!r}".format(value))


class DAG:
    def __init__(self, dag_id, *, schedule, start_date, catchup, params, tags,
                 user_defined_filters=None, **kwargs):
        if kwargs:
            raise TypeError("DAG() got unexpected keyword arguments {}".format(sorted(kwargs)))
        if not isinstance(start_date, datetime.datetime) or start_date.tzinfo is None:
            raise StubError("start_date must be a timezone-aware datetime")
        for name, param in params.items():
            if not isinstance(param, Param):
                raise StubError("param {!r} is not a Param".format(name))
            if schedule is not None and param.required:
                raise ValueError("DAG {!r} is not allowed to define a Schedule, as there are "
                                 "required params without default values".format(dag_id))
        self.dag_id = dag_id
        self.schedule = schedule
        self.start_date = start_date
        self.catchup = catchup
        self.params = params
        self.tags = tags
        self.user_defined_filters = user_defined_filters or {}
        self.tasks = []
        self.task_ids = set()
        self.groups = []
        self.edges = []

    def __enter__(self):
        if _State.dag is not None:
            raise StubError("nested DAG contexts")
        _State.dag = self
        DAGS.append(self)
        return self

    def __exit__(self, *exc):
        _State.dag = None
        return False

    def add_task(self, op):
        if op.task_id in self.task_ids:
            raise StubError("duplicate task id {!r}".format(op.task_id))
        self.task_ids.add(op.task_id)
        self.tasks.append(op)


DAGS = []

_NOTSET = object()
_JSON_TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool,
               "array": list, "null": type(None)}


class Param:
    def __init__(self, default=_NOTSET, description=None, **schema):
        if set(schema) - {"type"}:
            raise StubError("unexpected Param schema keys {}".format(sorted(schema)))
        types = schema.get("type")
        types = types if isinstance(types, list) else [types]
        for t in types:
            if t not in _JSON_TYPES:
                raise StubError("unknown Param type {!r}".format(t))
        if default is not _NOTSET:
            ok = any(isinstance(default, _JSON_TYPES[t]) and
                     not (t in ("integer", "number") and isinstance(default, bool))
                     for t in types)
            if not ok:
                raise StubError("Param default {!r} is not of type {}".format(default, types))
        self.default = default
        self.schema = schema

    @property
    def required(self):
        return self.default is _NOTSET


class BaseOperator(Node):
    def __init__(self, task_id, kwargs):
        self.local_id = task_id
        self.group = _State.groups[-1] if _State.groups else None
        self.task_id = (self.group.group_id + "." + task_id) if self.group else task_id
        self.kwargs = kwargs
        self.mapped = None  # expand() keyword arguments, for a mapped task
        dag = _current_dag()
        if self.group is not None:
            self.group.tasks.append(self)
        dag.add_task(self)

    def node_id(self):
        return self.task_id


def _check_base_kwargs(kwargs, allowed, what):
    unknown = sorted(set(kwargs) - allowed)
    if unknown:
        raise TypeError("{} got unexpected keyword arguments {}".format(what, unknown))
    if "task_id" not in kwargs:
        raise TypeError("{} needs task_id".format(what))


class KubernetesPodOperator(BaseOperator):
    template_fields = KPO_TEMPLATE_FIELDS

    def __init__(self, **kwargs):
        _check_base_kwargs(kwargs, KPO_KWARGS | BASE_KWARGS, "KubernetesPodOperator()")
        _check_kpo_values(kwargs)
        super().__init__(kwargs["task_id"], kwargs)

    @classmethod
    def partial(cls, **kwargs):
        _check_base_kwargs(kwargs, KPO_KWARGS | BASE_KWARGS, "KubernetesPodOperator.partial()")
        _check_kpo_values(kwargs)
        return _PartialOperator(cls, kwargs)


def _check_kpo_values(kwargs):
    # The provider's converters take only k8s models for these (dicts raise).
    from kubernetes.client import models as k8s
    expected = {"volumes": k8s.V1Volume, "volume_mounts": k8s.V1VolumeMount,
                "ports": k8s.V1ContainerPort, "env_from": k8s.V1EnvFromSource,
                "tolerations": k8s.V1Toleration, "image_pull_secrets": k8s.V1LocalObjectReference,
                "env_vars": k8s.V1EnvVar}
    for key, model in expected.items():
        for value in kwargs.get(key) or []:
            if not isinstance(value, model):
                raise StubError("{}: expected {}, got {!r}".format(key, model.__name__, value))
    for key, model in (("container_resources", k8s.V1ResourceRequirements),
                       ("container_security_context", k8s.V1SecurityContext),
                       ("full_pod_spec", k8s.V1Pod)):
        if key in kwargs and not isinstance(kwargs[key], model):
            raise StubError("{}: expected {}".format(key, model.__name__))


def _check_not_in_mapped_group():
    for group in _State.groups:
        if group.mapped is not None:
            raise NotImplementedError(
                "operator expansion in an expanded task group is not yet supported")


class _PartialOperator:
    def __init__(self, cls, kwargs, fn=None, sensor=False):
        self.cls = cls
        self.kwargs = kwargs
        self.fn = fn
        self.sensor = sensor

    def expand(self, **mapped):
        _check_not_in_mapped_group()
        for key, value in mapped.items():
            if key in NOT_MAPPABLE or key in self.kwargs:
                raise TypeError("{} cannot be mapped here".format(key))
            if self.cls is KubernetesPodOperator and key not in KPO_KWARGS:
                raise TypeError("unexpected mapped argument {}".format(key))
            if not isinstance(value, (list, dict, XComArg)):
                raise StubError("expand() takes a list, a dict or an XComArg for " + key)
        if self.fn is not None:
            op = PythonTask(self.fn, self.kwargs, self.sensor)
            op.mapped = mapped
            return XComArg(op)
        op = BaseOperator.__new__(self.cls)
        BaseOperator.__init__(op, self.kwargs["task_id"], self.kwargs)
        op.mapped = mapped
        return op


class PythonTask(BaseOperator):
    """A TaskFlow task: `task(...)(fn)(...)`. op_kwargs are templated, as in Airflow."""

    def __init__(self, fn, kwargs, sensor=False):
        self.fn = fn
        own = BASE_KWARGS | (SENSOR_KWARGS if sensor else frozenset())
        task_kwargs = {k: v for k, v in kwargs.items() if k in own}
        self.op_kwargs = {k: v for k, v in kwargs.items() if k not in own}
        self.sensor = sensor
        self.is_teardown = False
        super().__init__(task_kwargs.get("task_id", fn.__name__), task_kwargs)


class XComArg(Node):
    """The output of a TaskFlow task."""

    def __init__(self, operator):
        self.operator = operator

    def node_id(self):
        return self.operator.task_id

    def as_teardown(self, *, setups=None, on_failure_fail_dagrun=None):
        """As airflow/models/xcom_arg.py: marks the task a teardown, trigger rule
        ALL_DONE_SETUP_SUCCESS; a mapped task cannot be one."""
        if self.operator.mapped is not None:
            raise ValueError("a mapped task cannot be a teardown")
        self.operator.is_teardown = True
        self.operator.kwargs["trigger_rule"] = "all_done_setup_success"
        if setups is not None:
            raise StubError("flowc's teardowns have no setup")
        return self


class _TaskDecorator:
    def __init__(self, fn, task_kwargs, sensor=False):
        allowed = BASE_KWARGS | (SENSOR_KWARGS if sensor else frozenset())
        unknown = sorted(set(task_kwargs) - allowed)
        if unknown:
            raise TypeError("task() got unexpected keyword arguments {}".format(unknown))
        if sensor:
            _check_sensor_kwargs(task_kwargs)
        self.fn = fn
        self.task_kwargs = task_kwargs
        self.sensor = sensor

    def __call__(self, *args, **kwargs):
        if args:
            raise StubError("flowc passes task arguments by keyword")
        clash = set(kwargs) & (BASE_KWARGS | (SENSOR_KWARGS if self.sensor else frozenset()))
        if clash:
            raise StubError("task arguments shadow operator arguments: {}".format(sorted(clash)))
        return XComArg(PythonTask(self.fn, {**self.task_kwargs, **kwargs}, self.sensor))

    def partial(self, **kwargs):
        return _PartialOperator(PythonTask, {**self.task_kwargs, **kwargs}, fn=self.fn,
                                sensor=self.sensor)


def _check_sensor_kwargs(kwargs):
    """As BaseSensorOperator._validate_input_values: numbers, and a known mode."""
    for key in ("poke_interval", "timeout"):
        value = kwargs.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise StubError("The {} must be a non-negative number".format(key))
    if kwargs.get("mode", "poke") not in ("poke", "reschedule"):
        raise StubError("unknown sensor mode {!r}".format(kwargs.get("mode")))


class _TaskFactory:
    """`task`: `task(**kwargs)(fn)`, and `task.sensor(**kwargs)(fn)` (Airflow 2.5+)."""

    def __call__(self, python_callable=None, **task_kwargs):
        if python_callable is not None:
            return _TaskDecorator(python_callable, task_kwargs)
        return lambda fn: _TaskDecorator(fn, task_kwargs)

    def sensor(self, python_callable=None, **task_kwargs):
        if python_callable is not None:
            return _TaskDecorator(python_callable, task_kwargs, sensor=True)
        return lambda fn: _TaskDecorator(fn, task_kwargs, sensor=True)


task = _TaskFactory()


class MappedArgument:
    """A mapped task group's argument: a placeholder until the group runs."""

    def __init__(self, group, name):
        self.group = group
        self.name = name


class TaskGroup(Node):
    def __init__(self, group_id, parent):
        self.group_id = (parent.group_id + "." + group_id) if parent else group_id
        self.parent = parent
        self.tasks = []
        self.mapped = None

    def node_id(self):
        return self.group_id


class _TaskGroupFactory:
    def __init__(self, fn, group_id):
        self.fn = fn
        self.group_id = group_id or fn.__name__

    def expand(self, **mapped):
        _check_not_in_mapped_group()
        for key, value in mapped.items():
            if not isinstance(value, (list, XComArg)):
                raise StubError("a task group expands over a list or an XComArg")
        parent = _State.groups[-1] if _State.groups else None
        group = TaskGroup(self.group_id, parent)
        group.mapped = mapped
        _current_dag().groups.append(group)
        _State.groups.append(group)
        try:
            self.fn(**{key: MappedArgument(group, key) for key in mapped})
        finally:
            _State.groups.pop()
        return group

    def __call__(self, *args, **kwargs):
        raise StubError("flowc only uses mapped task groups")


def task_group(python_callable=None, group_id=None, **kwargs):
    if kwargs:
        raise TypeError("task_group() got unexpected keyword arguments {}".format(sorted(kwargs)))
    if python_callable is not None:
        return _TaskGroupFactory(python_callable, group_id)
    return lambda fn: _TaskGroupFactory(fn, group_id)


# The cluster the hook talks to: a fake API server (tests/py/airflow_stub/fake_kube.py) that a
# test or run_dag.py sets.
KUBE = None


def _kube():
    if KUBE is None:
        raise StubError("no fake Kubernetes API is set up (airflow._stub.KUBE)")
    return KUBE


from fake_kube import make_hook_class  # noqa: E402

KubernetesHook = make_hook_class(_kube)
