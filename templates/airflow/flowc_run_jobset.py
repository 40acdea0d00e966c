def flowc_run_jobset(step, item=None, **context):
    """Runs a @parallel step: creates its JobSet, waits for a terminal state, deletes it.

    The JobSet is FLOWC_JOBSETS[step], the one `flowc compile --target jobset` emits for the
    step, named uniquely for this try. Only its commands are templates: they are rendered
    here, after the YAML is parsed, so no param value can change the manifest's structure.
    """
    jobset = yaml.safe_load(FLOWC_JOBSETS[step])
    ti = context["ti"]
    key = "/".join(
        str(part) for part in (ti.dag_id, context["run_id"], ti.task_id, ti.map_index, ti.try_number)
    )
    name = "{}-{}".format(jobset["metadata"]["name"], hashlib.sha256(key.encode()).hexdigest()[:8])
    jobset["metadata"]["name"] = name
    values = {"params": context["params"], "run_id": context["run_id"]}
    if item is not None:
        values["item"] = flowc_text(item)
    for replicated_job in jobset["spec"]["replicatedJobs"]:
        for container in replicated_job["template"]["spec"]["template"]["spec"]["containers"]:
            container["command"] = [
                context["task"].render_template(arg, values) for arg in container["command"]
            ]
    namespace = jobset["metadata"].get("namespace")
    api = {"group": "jobset.x-k8s.io", "version": "v1alpha2", "plural": "jobsets"}
    hook = KubernetesHook()
    hook.create_custom_object(body=jobset, namespace=namespace, **api)
    try:
        while True:
            found = hook.get_custom_object(name=name, namespace=namespace, **api)
            status = found.get("status") or {}
            if status.get("terminalState") == "Completed":
                return
            if status.get("terminalState") == "Failed":
                raise RuntimeError("JobSet {} failed: {}".format(name, status.get("conditions")))
            time.sleep(30)
    finally:
        try:
            hook.delete_custom_object(
                name=name, namespace=namespace, propagation_policy="Background", **api
            )
        except ApiException as error:
            if error.status != 404:
                raise
