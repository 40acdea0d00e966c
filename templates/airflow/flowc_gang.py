def flowc_gang_labels(context, step):
    """Labels that find a run's gangs: of this step (`flowc/step`) and of this try's task
    instance whatever the try (`flowc/task`). Hashes: label values are at most 63 characters
    of [A-Za-z0-9_.-], and run ids hold ':' and '+'."""
    ti = context["ti"]

    def digest(*parts):
        return hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()[:32]

    return {
        "flowc/step": digest(ti.dag_id, context["run_id"], step),
        "flowc/task": digest(ti.dag_id, context["run_id"], ti.task_id, ti.map_index),
    }


def flowc_gang_end(gang, ends):
    """'succeeded', 'failed' or None: whether the gang has ended, by the rules of its kind.

    A rule is {"field": F, "value": V} (status.F == V: JobSet's terminalState) or
    {"condition": T} (a status condition of type T whose status is "True": TrainJob's Complete
    and Failed).
    """
    status = gang.get("status") or {}
    for outcome in ("failed", "succeeded"):
        for rule in ends[outcome]:
            if "field" in rule and status.get(rule["field"]) == rule["value"]:
                return outcome
            for condition in status.get("conditions") or []:
                if condition.get("type") == rule.get("condition") and condition.get("status") == "True":
                    return outcome
    return None


def flowc_gang_age(gang, now):
    """Seconds since the API server created the gang (metadata.creationTimestamp, RFC 3339)."""
    created = datetime.datetime.strptime(
        gang["metadata"]["creationTimestamp"], "%Y-%m-%dT%H:%M:%SZ"
    ).replace(tzinfo=datetime.timezone.utc)
    return (now - created).total_seconds()


def flowc_delete_gangs(hook, api, namespace, labels, keep=None):
    """Deletes the gangs that carry all of `labels`, except the one named `keep`.

    Background propagation: the garbage collector then deletes what the gang owns, a JobSet's
    Jobs and pods, and a TrainJob's JobSet (the Trainer sets a controller owner reference on
    it: kubeflow/trainer pkg/runtime/framework/plugins/jobset/jobset.go, Build)."""
    selector = ",".join("{}={}".format(k, v) for k, v in sorted(labels.items()))
    # The namespace the hook's own methods use for None (hooks/kubernetes.py).
    found = hook.custom_object_client.list_namespaced_custom_object(
        namespace=namespace or hook.get_namespace() or "default", label_selector=selector, **api
    )
    for gang in found.get("items", []):
        name = gang["metadata"]["name"]
        if name == keep:
            continue
        try:
            hook.delete_custom_object(
                name=name, namespace=namespace, propagation_policy="Background", **api
            )
            print("deleted {} {}".format(gang.get("kind"), name))
        except ApiException as error:
            if error.status != 404:
                raise


def flowc_gang(step, item=None, timeout_seconds=None, **context):
    """Runs a @parallel step's gang, as a sensor in reschedule mode: one short call per poke.

    The gang is FLOWC_GANGS[step], a JobSet or a TrainJob written by the shared Kubernetes
    renderer, named for this try: try_number stays the same across the reschedules of a try
    (Airflow 2.9's TaskInstance._handle_reschedule decrements it again; from 2.10 only the
    scheduler increments it, for a new try), so each try creates a gang of its own. On the first
    poke of a try the gang is absent: it is created, and any gang of an earlier try of this task
    instance (a cleared task) is deleted. Later pokes read its status. When it has ended it is
    deleted, and the task succeeds or fails; a try older than `timeout_seconds` (@timeout, from
    the gang's creation) deletes it and fails, and Airflow retries per @retry. Between pokes the
    task holds no worker slot. Only the commands are templates: they are rendered after the YAML
    is parsed, so no param value can change the manifest's structure.
    """
    gang = yaml.safe_load(FLOWC_GANGS[step])
    ti = context["ti"]
    key = "/".join(
        str(part) for part in (ti.dag_id, context["run_id"], ti.task_id, ti.map_index, ti.try_number)
    )
    name = "{}-{}".format(gang["metadata"]["name"], hashlib.sha256(key.encode()).hexdigest()[:8])
    api = flowc_api(gang)
    hook = KubernetesHook()
    namespace = gang["metadata"].get("namespace")
    labels = flowc_gang_labels(context, step)
    try:
        found = hook.get_custom_object(name=name, namespace=namespace, **api)
    except ApiException as error:
        if error.status != 404:
            raise
        found = None
    if found is None:
        flowc_delete_gangs(hook, api, namespace, {"flowc/task": labels["flowc/task"]}, keep=name)
        gang["metadata"]["name"] = name
        gang["metadata"].setdefault("labels", {}).update(labels)
        values = {"params": context["params"], "run_id": context["run_id"]}
        if item is not None:
            values["item"] = flowc_text(item)
        flowc_render_commands(gang, lambda arg: context["task"].render_template(arg, values))
        hook.create_custom_object(body=gang, namespace=namespace, **api)
        print("created {} {}".format(gang["kind"], name))
        return False
    end = flowc_gang_end(found, FLOWC_GANG_ENDS[gang["kind"]])
    expired = (
        end is None
        and timeout_seconds is not None
        and flowc_gang_age(found, datetime.datetime.now(datetime.timezone.utc)) > timeout_seconds
    )
    if end is None and not expired:
        return False
    try:
        flowc_delete_gangs(hook, api, namespace, {"flowc/task": labels["flowc/task"]})
    except Exception as error:  # the outcome stands; the step's teardown deletes it again
        print("could not delete {} {}: {}".format(gang["kind"], name, error))
    if end == "succeeded":
        return True
    if expired:
        raise RuntimeError("{} {} ran past @timeout ({} s)".format(gang["kind"], name, timeout_seconds))
    raise RuntimeError("{} {} failed: {}".format(gang["kind"], name, found.get("status")))


def flowc_render_commands(value, render):
    """Renders every command inside a manifest: each container's, wherever its pods are, and
    a TrainJob's `spec.trainer.command`, which the Trainer gives its container `node`."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("containers", "initContainers") and isinstance(item, list):
                for container in item:
                    if "command" in container:
                        container["command"] = [render(arg) for arg in container["command"]]
            elif key == "trainer" and isinstance(item, dict) and "command" in item:
                item["command"] = [render(arg) for arg in item["command"]]
            else:
                flowc_render_commands(item, render)
    elif isinstance(value, list):
        for item in value:
            flowc_render_commands(item, render)


def flowc_gang_teardown(step, **context):
    """The teardown of a @parallel step: deletes every gang of the step left in this run.

    A gang ends with its task when the task sees it end; this catches the other endings (the
    task marked failed or success, or failed by a timeout or a crash between two pokes).
    """
    gang = yaml.safe_load(FLOWC_GANGS[step])
    hook = KubernetesHook()
    namespace = gang["metadata"].get("namespace")
    labels = flowc_gang_labels(context, step)
    flowc_delete_gangs(hook, flowc_api(gang), namespace, {"flowc/step": labels["flowc/step"]})
