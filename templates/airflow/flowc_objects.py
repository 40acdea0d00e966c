def flowc_object_label(obj):
    """How messages name an object: Kind namespace/name."""
    return "{} {}/{}".format(
        obj["kind"], obj["metadata"].get("namespace", ""), obj["metadata"]["name"]
    )


def flowc_wire(value):
    """A value as the API's JSON has it: YAML's !!binary (ConfigMap binaryData) as base64."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, dict):
        return {key: flowc_wire(item) for key, item in value.items()}
    if isinstance(value, list):
        return [flowc_wire(item) for item in value]
    return value


# Maps the API server may not add keys to: their keys are the object's content, compared
# exactly. In every other map, keys flowc does not set are the server's defaults.
FLOWC_EXACT_MAPS = {"data", "binaryData", "labels", "annotations"}


def flowc_object_differences(want, have, path=""):
    """Where `have` (read from the API) differs from what flowc sets in `want`: paths."""
    if isinstance(want, dict) and isinstance(have, dict):
        out = []
        for key, item in want.items():
            where = "{}.{}".format(path, key) if path else key
            if key not in have:
                out.append(where)
            else:
                out.extend(flowc_object_differences(item, have[key], where))
        if path.rpartition(".")[2] in FLOWC_EXACT_MAPS:
            out.extend("{}.{}".format(path, key) for key in have if key not in want)
        return out
    if isinstance(want, list) and isinstance(have, list) and len(want) == len(have):
        out = []
        for index, (item, found) in enumerate(zip(want, have)):
            out.extend(flowc_object_differences(item, found, "{}[{}]".format(path, index)))
        return out
    return [] if want == have else [path]


def flowc_object_read(hook, obj):
    """The object of this kind, namespace and name as the API has it (JSON), or None."""
    api = flowc_api(obj)
    name, namespace = obj["metadata"]["name"], obj["metadata"].get("namespace")
    try:
        if api["group"]:
            return hook.get_custom_object(name=name, namespace=namespace, **api)
        # The core group has no custom-object path (/api/v1, not /apis/...). Read the raw
        # JSON: a typed model would drop every field its client version does not know.
        read = getattr(hook.core_v1_client, "read_namespaced_" + flowc_snake(obj["kind"]))
        response = read(
            name=name,
            namespace=namespace or hook.get_namespace() or "default",
            _preload_content=False,
        )
        return json.loads(response.data)
    except ApiException as error:
        if error.status == 404:
            return None
        raise


def flowc_snake(kind):
    """ConfigMap -> config_map: how kubernetes.client's CoreV1Api names its methods."""
    return "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(kind))


def flowc_object_create(hook, obj):
    """Creates the object; False if one of its name exists already (HTTP 409)."""
    api = flowc_api(obj)
    namespace = obj["metadata"].get("namespace")
    try:
        if api["group"]:
            hook.create_custom_object(body=obj, namespace=namespace, **api)
        else:
            create = getattr(hook.core_v1_client, "create_namespaced_" + flowc_snake(obj["kind"]))
            create(namespace=namespace or hook.get_namespace() or "default", body=obj)
        return True
    except ApiException as error:
        if error.status == 409:
            return False
        raise


def flowc_create_objects(objects):
    """Creates the objects beside the pods that the tasks after this one need.

    Each one is FLOWC_OBJECTS[key], the YAML that `flowc compile --target argo` and `--target
    jobset` put in their streams. An object that is absent is created; one that exists must hold
    what flowc sets (the API server's defaults and metadata aside), or the task fails naming it:
    flowc never changes or deletes an object it finds, which may be someone else's. Names carry
    a hash of the content, so a different object under the same name is not flowc's.
    """
    hook = KubernetesHook()
    for key in objects:
        obj = flowc_wire(yaml.safe_load(FLOWC_OBJECTS[key]))
        found = flowc_object_read(hook, obj)
        if found is None:
            if flowc_object_create(hook, obj):
                print("created {}".format(flowc_object_label(obj)))
                continue
            # Created by someone else since the read (a task of another run, say): compare.
            found = flowc_object_read(hook, obj)
            if found is None:
                raise RuntimeError("{}: exists, then not found".format(flowc_object_label(obj)))
        # The object's own labels say who made it, not what it holds (its name hashes the
        # content alone): one an earlier flowc made without them is this flow's object.
        content = dict(obj, metadata={k: v for k, v in obj["metadata"].items() if k != "labels"})
        differences = flowc_object_differences(content, found)
        if differences:
            raise RuntimeError(
                "{} exists with content other than this flow's (at {}); flowc does not "
                "overwrite it: delete or rename it, or rename what the flow asks for".format(
                    flowc_object_label(obj), ", ".join(differences)
                )
            )
        print("{} exists with this content".format(flowc_object_label(obj)))
