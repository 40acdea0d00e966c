"""The Airflow DAG's creation of the objects beside the pods (templates/airflow/flowc_objects.py),
against a fake Kubernetes API (tests/py/airflow_stub/fake_kube.py).

Each case runs flowc_create_objects as the DAG's setup task does and checks exactly what the
API server was asked to do and what the task reported:
  - absent (404): created, ResourceClaimTemplates through the custom-object API of the hook,
    ConfigMaps through CoreV1Api (read as raw JSON), binaryData as base64 text;
  - present with the same content, the server's metadata and defaults added: left alone;
  - present with other content (a field flowc sets, a key in a ConfigMap's data): the task
    fails with an error naming Kind namespace/name and the differing paths, and nothing is
    written, deleted or replaced;
  - present without the labels flowc now sets (made by an earlier flowc): left alone, labels
    say who made an object, not what it holds;
  - a create that races another (409): the object is read again and compared;
  - any other API error (403) fails the task as it is.
"""
import os
import sys

import yaml_reader

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "airflow_stub"))
import dag_helpers  # noqa: E402
import fake_kube  # noqa: E402
import flowc_testlib as lib  # noqa: E402
from kubernetes.client.exceptions import ApiException  # noqa: E402

TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: train-neuron-0123456789
  namespace: ml
spec:
  spec:
    devices:
      requests:
        - name: neurons
          exactly:
            deviceClassName: neuron.aws.com
            allocationMode: ExactCount
            count: 16
"""
CONFIGMAP = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: train-code-0123456789
  namespace: ml
  labels:
    app.kubernetes.io/managed-by: flowc
    flowc/flow: train
immutable: true
data:
  train.py: "print('hi')\\n"
binaryData:
  weights.bin: AAEC/w==
  legacy.bin: !!binary AAEC/w==
"""
TABLES = {"FLOWC_OBJECTS": {"ResourceClaimTemplate/ml/train-neuron-0123456789": TEMPLATE,
                            "ConfigMap/ml/train-code-0123456789": CONFIGMAP}}
KEYS = list(TABLES["FLOWC_OBJECTS"])
RCT_API = ("resource.k8s.io", "v1", "resourceclaimtemplates")
CM_API = ("", "v1", "configmaps")
# What the API server adds to a claim template's request (resource.k8s.io/v1 defaults).
DEFAULTS = {"ResourceClaimTemplate": [
    (("spec", "spec", "devices", "requests", 0, "exactly", "adminAccess"), False)]}


class Case:
    def __init__(self, failures):
        self.failures = failures
        self.checked = 0

    def expect(self, what, condition, detail=""):
        self.checked += 1
        if not condition:
            self.failures.append(f"{what}{': ' + str(detail) if detail else ''}")


def run(kube, keys=KEYS):
    """Runs the setup task; returns the error it raised (None if it succeeded)."""
    ns = dag_helpers.load(kube, TABLES)
    try:
        ns["flowc_create_objects"](objects=keys)
    except Exception as error:  # noqa: BLE001 - the task's failure is what is checked
        return error
    return None


def writes(kube):
    return [entry for entry in kube.log if entry[0] != "read"]


def main():
    failures = []
    c = Case(failures)
    want_rct = yaml_reader.load(TEMPLATE)
    want_cm = yaml_reader.load(CONFIGMAP)
    want_cm["binaryData"]["legacy.bin"] = "AAEC/w=="  # !!binary as the API's base64

    # Absent: created, each once.
    kube = fake_kube.FakeKube(defaults=DEFAULTS)
    error = run(kube)
    c.expect("absent: no error", error is None, error)
    c.expect("absent: two creates", writes(kube) == [
        ("create", "ResourceClaimTemplate", "ml", "train-neuron-0123456789"),
        ("create", "ConfigMap", "ml", "train-code-0123456789")], writes(kube))
    stored = kube.objects.get(RCT_API + ("ml", "train-neuron-0123456789"), {})
    c.expect("absent: the template's content", stored.get("spec") == {
        "spec": {"devices": {"requests": [{"name": "neurons", "exactly": {
            "deviceClassName": "neuron.aws.com", "allocationMode": "ExactCount", "count": 16,
            "adminAccess": False}}]}}}, stored.get("spec"))
    stored = kube.objects.get(CM_API + ("ml", "train-code-0123456789"), {})
    c.expect("absent: the ConfigMap's content, binaryData as base64",
             {k: stored.get(k) for k in ("immutable", "data", "binaryData")} ==
             {k: want_cm[k] for k in ("immutable", "data", "binaryData")}, stored)

    c.expect("absent: the ConfigMap's labels", stored.get("metadata", {}).get("labels") ==
             want_cm["metadata"]["labels"], stored.get("metadata"))

    # Present, same content plus server metadata and defaults: nothing written.
    again = run(kube)
    c.expect("present and equal: no error", again is None, again)
    c.expect("present and equal: nothing written", len(writes(kube)) == 2, writes(kube))

    # Present with another count: an error naming the object and the field; nothing written.
    kube = fake_kube.FakeKube()
    other = yaml_reader.load(TEMPLATE)
    other["spec"]["spec"]["devices"]["requests"][0]["exactly"]["count"] = 8
    kube.put(*RCT_API, other)
    error = run(kube, KEYS[:1])
    c.expect("different: the exact error", str(error) ==
             "ResourceClaimTemplate ml/train-neuron-0123456789 exists with content other than "
             "this flow's (at spec.spec.devices.requests[0].exactly.count); flowc does not "
             "overwrite it: delete or rename it, or rename what the flow asks for", error)
    c.expect("different: nothing written", writes(kube) == [], writes(kube))
    c.expect("different: the object is untouched", kube.objects[RCT_API + (
        "ml", "train-neuron-0123456789")]["spec"]["spec"]["devices"]["requests"][0]["exactly"]
        ["count"] == 8)

    # A ConfigMap with one more file: data is content, compared key for key.
    kube = fake_kube.FakeKube()
    extra = yaml_reader.load(CONFIGMAP)
    extra["binaryData"]["legacy.bin"] = "AAEC/w=="
    extra["data"]["evil.py"] = "import os"
    kube.put(*CM_API, extra)
    error = run(kube, KEYS[1:])
    c.expect("extra data key: the error names it", str(error).startswith(
        "ConfigMap ml/train-code-0123456789 exists with content other than this flow's "
        "(at data.evil.py)"), error)

    # Made by an earlier flowc, which set no labels: the same object.
    kube = fake_kube.FakeKube()
    unlabelled = dict(want_cm, metadata={"name": "train-code-0123456789", "namespace": "ml"})
    kube.put(*CM_API, unlabelled)
    error = run(kube, KEYS[1:])
    c.expect("present without labels: no error", error is None, error)
    c.expect("present without labels: nothing written", writes(kube) == [], writes(kube))

    # A ConfigMap that lost immutability: a field flowc sets.
    kube = fake_kube.FakeKube()
    mutable = dict(want_cm, immutable=False)
    kube.put(*CM_API, mutable)
    error = run(kube, KEYS[1:])
    c.expect("mutable ConfigMap: refused", "(at immutable)" in str(error), error)

    # 409: someone creates it between the read and the create; equal content is fine.
    for content, ok in ((want_rct, True), (other, False)):
        kube = fake_kube.FakeKube()
        raced = []

        def race(group, version, plural, namespace, body, kube=kube, content=content):
            if not raced:
                raced.append(True)
                kube.put(group, version, plural, content)
        kube.on_create = race
        error = run(kube, KEYS[:1])
        label = "409 race with " + ("equal" if ok else "other") + " content"
        c.expect(label + ": read again after the 409",
                 [e[0] for e in kube.log] == ["read", "create", "read"], kube.log)
        c.expect(label + (": accepted" if ok else ": refused, naming the object"),
                 (error is None) if ok else
                 "ResourceClaimTemplate ml/train-neuron-0123456789 exists" in str(error), error)

    # Forbidden: the API's error, unchanged.
    kube = fake_kube.FakeKube()

    def forbid(*args):
        raise ApiException(status=403, reason="Forbidden")
    kube.on_create = forbid
    error = run(kube, KEYS[:1])
    c.expect("403: raised as the API's error",
             isinstance(error, ApiException) and error.status == 403, repr(error))

    # The DAG's table and task: a compiled sample's FLOWC_OBJECTS holds the shared renderer's
    # documents, keyed Kind/namespace/name.
    text = lib.compile_flow("samples/neuron_connected_devices.flow", "airflow")
    ir = lib.ir_of("samples/neuron_connected_devices.flow")
    table = {}
    exec(compile(text.split("\nFLOWC_OBJECTS = ", 1)[1].split("\n}\n", 1)[0].join(
        ["FLOWC_OBJECTS = ", "\n}\n"]), "dag", "exec"), table)
    argo_docs = [d for d in yaml_reader.load_all(lib.compile_flow(
        "samples/neuron_connected_devices.flow", "argo")) if d["kind"] == "ResourceClaimTemplate"]
    c.expect("the DAG's objects are the IR's", sorted(table["FLOWC_OBJECTS"]) == sorted(
        f"{o['kind']}/{o['namespace']}/{o['name']}" for o in ir["objects"]),
        sorted(table["FLOWC_OBJECTS"]))
    c.expect("the DAG's objects are the Argo stream's documents",
             [yaml_reader.load(v) for v in table["FLOWC_OBJECTS"].values()] == argo_docs)
    kube = fake_kube.FakeKube()
    ns = dag_helpers.load(kube, table)
    ns["flowc_create_objects"](objects=list(table["FLOWC_OBJECTS"]))
    c.expect("the sample's template is created", kube.named("resourceclaimtemplates") ==
             [o["name"] for o in ir["objects"]], kube.named("resourceclaimtemplates"))

    lib.finish("test_airflow_objects", failures, c.checked)


if __name__ == "__main__":
    main()
