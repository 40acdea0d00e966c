"""DRA claims on the Airflow target, for every kubernetes client that provider 10+ allows.

The pod a KubernetesPodOperator sends must carry `spec.resourceClaims: [{name,
resourceClaimTemplateName}]` and the container's `resources.claims: [{name}]`, the Kubernetes
1.34 shape, whichever client (29 to 35) Airflow runs with. The clients' typed models differ
(tests/py/airflow_stub/k8s_models.py holds each version's shape, copied from their sources), so
for each version this test:
  1. runs every DAG of a flow with claims (the @neuron samples and tests/golden/airflow/cases)
     against the stand-in airflow package with that version's models, building each pod as the
     provider's build_pod_request_obj does (full_pod_spec merged by reconcile_pods) and
     serializing it with ApiClient.sanitize_for_serialization, and checks that every pod's
     claims equal the IR pod's, exactly;
  2. checks that the forms flowc does not use would be wrong there (so that (1) can fail): a
     typed V1PodResourceClaim with resource_claim_template_name is refused by clients 29-30, a
     typed one with source=V1ClaimSource is refused by 31+ and sends `source`, which the 1.34
     API does not have, from 29-30; `k8s.V1ResourceClaim` is missing from 34 on (issue 31),
     while the model flowc_models.py chooses serializes to {name} on every client.
Run with `--version N` it is the subprocess that does (2) for one version. Both kinds of
subprocess run in fork servers (dag_pool.py), which import the kubernetes package once.
"""
import glob
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
STUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "airflow_stub")
sys.path.insert(0, STUB)
import dag_pool  # noqa: E402
import flowc_testlib as lib  # noqa: E402
import k8s_models  # noqa: E402
import pod_readers as readers  # noqa: E402

SHAPE_1_34 = [{"name": "neurons", "resourceClaimTemplateName": "t"}]


def typed_forms(version):
    """What each way of writing one pod claim serializes to with client `version`'s models."""
    k8s_models.install(version)
    from kubernetes.client import ApiClient
    from kubernetes.client import models as k8s
    api = ApiClient()
    out = {}

    def form(name, build):
        try:
            spec = k8s.V1PodSpec(containers=[], resource_claims=[build()])
            out[name] = api.sanitize_for_serialization(spec).get("resourceClaims")
        except (TypeError, AttributeError, ValueError) as e:
            out[name] = f"{type(e).__name__}"

    form("dict", lambda: {"name": "neurons", "resourceClaimTemplateName": "t"})
    form("typed flat", lambda: k8s.V1PodResourceClaim(name="neurons",
                                                      resource_claim_template_name="t"))
    form("typed source", lambda: k8s.V1PodResourceClaim(
        name="neurons", source=k8s.V1ClaimSource(resource_claim_template_name="t")))
    def container(name, build):
        try:
            resources = k8s.V1ResourceRequirements(claims=[build()])
            out[name] = api.sanitize_for_serialization(resources).get("claims")
        except (TypeError, AttributeError, ValueError) as e:
            out[name] = f"{type(e).__name__}"

    # The model the DAG names, chosen by templates/airflow/flowc_models.py, and the one name
    # that would be wrong from client 34 on.
    helpers = {"k8s": k8s}
    with open(os.path.join(lib.SOURCE_DIR, "templates", "airflow", "flowc_models.py"),
              encoding="utf-8") as f:
        exec(f.read(), helpers)
    container("container", lambda: helpers["FLOWC_RESOURCE_CLAIM"](name="neurons"))
    container("container V1ResourceClaim", lambda: k8s.V1ResourceClaim(name="neurons"))
    return out


def flows_with_claims():
    paths = lib.samples() + lib.test_flows() + sorted(
        os.path.relpath(p, lib.SOURCE_DIR) for p in glob.glob(
            os.path.join(lib.SOURCE_DIR, "tests", "golden", "airflow", "cases", "*.flow")))
    out = []
    for path in paths:
        result = lib.run_flowc("compile", path, "--target", "ir", "-o", "-")
        if result.returncode != 0:
            continue
        ir = json.loads(result.stdout)
        if any(s["pod"]["spec"].get("resourceClaims") for s in ir["steps"]):
            out.append((path, ir))
    return out


def claims_of(pod):
    spec = pod.get("spec", {})
    return spec.get("resourceClaims"), spec["containers"][0].get("resources", {}).get("claims")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--version":
        json.dump(typed_forms(sys.argv[2]), sys.stdout)
        return
    failures = []
    checked = 0
    flows = flows_with_claims()
    if not flows:
        failures.append("no flow with DRA claims to run")
    with tempfile.TemporaryDirectory() as tmp:
        dags = []
        for path, ir in flows:
            dag = os.path.join(tmp, ir["flow"] + ".py")
            with open(dag, "w", encoding="utf-8") as f:
                f.write(lib.compile_flow(path, "airflow"))
            dags.append((path, ir, dag))
        for version in k8s_models.VERSIONS:
            for path, ir, dag in dags:
                checked += 1
                env = dict(os.environ, FLOWC_STUB_K8S_CLIENT=version, FLOWC_STUB_AIRFLOW="3")
                ran = dag_pool.run(os.path.join(STUB, "run_dag.py"),
                                   [dag, json.dumps(readers.airflow_param_values(ir))], env=env)
                if ran.returncode != 0:
                    failures.append(f"client {version}: {path}: the DAG does not run:\n"
                                    f"{ran.stderr[-2000:]}")
                    continue
                out = json.loads(ran.stdout)
                steps = {s["name"]: s for s in ir["steps"]}
                params = readers.airflow_param_values(ir)
                seen = 0
                for record in out["pods"]:
                    step_name, _, _ = readers.airflow_place(ir, params, record)
                    want = claims_of(steps[step_name]["pod"])
                    have = claims_of(record["pod"])
                    seen += bool(want[0])
                    if have != want:
                        failures.append(f"client {version}: {path}: task {record['task_id']}: "
                                        f"claims {have}, the IR has {want}")
                if not seen and not all("parallel" in s for s in ir["steps"]
                                        if s["pod"]["spec"].get("resourceClaims")):
                    failures.append(f"client {version}: {path}: no pod with claims ran")
            # The other forms, in a process of their own (models are installed globally).
            checked += 1
            ran = dag_pool.run(os.path.abspath(__file__), ["--version", version])
            if ran.returncode != 0:
                failures.append(f"client {version}: forms: {ran.stderr[-2000:]}")
                continue
            forms = json.loads(ran.stdout)
            old = int(version) <= 30
            expected = {
                "dict": SHAPE_1_34,
                "typed flat": "TypeError" if old else SHAPE_1_34,
                "typed source": [{"name": "neurons", "source": {
                    "resourceClaimTemplateName": "t"}}] if old else "AttributeError",
                "container": [{"name": "neurons"}],
                "container V1ResourceClaim": [{"name": "neurons"}] if int(version) <= 33
                else "AttributeError",
            }
            if forms != expected:
                failures.append(f"client {version}: forms {forms}, expected {expected}")
    lib.finish("test_airflow_claims", failures, checked)


if __name__ == "__main__":
    served = sys.argv[1:] == ["--serve"]
    if served:
        import fork_server
        fork_server.serve()  # returns in each child, sys.argv then a request's
    main()
    if served:
        fork_server.exit_served_run()
