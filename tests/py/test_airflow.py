"""End-to-end tests of the Airflow target (`flowc compile --target airflow`).

For every sample, every tests/flows/*.flow and the target's own cases
(tests/golden/airflow/cases/*.flow):
  1. the DAG file equals its golden tests/golden/airflow/<name>.py (cases: cases/<name>.py);
  2. `python3 -m py_compile` accepts it;
  3. it runs against tests/py/airflow_stub (a stand-in for the airflow modules it uses, whose
     KubernetesPodOperator rejects any argument the real provider-10 one does not accept), once
     as on Airflow 3 and once as on Airflow 2, with the same result;
  4. every task's pod, its templated fields rendered with Jinja as Airflow renders them (params
     at their defaults), equals the pod `--target ir` shows for its step, field for field, with
     the references replaced by their values; so does the pod inside the JobSet every @parallel
     task creates, and that JobSet passes flowc validate;
  5. every step runs as many times as the flow says (once, or once per foreach element), and
     the dependencies are the flow's edges;
  6. the objects beside the pods: the setup tasks create exactly the IR's objects, with the
     IR's content, and each is upstream of every task whose pods need it; every claim
     template a pod names is one of them or an admin's (not in the IR);
  7. gangs: every @parallel task is a sensor in reschedule mode (the run pokes it, and fails
     if anything sleeps), its gang is deleted when it ends, and a teardown task downstream of
     the step deletes what is left; no DAG imports `time` or sleeps.
tests/flows/hostile_strings.flow makes (4) the byte-for-byte test of quoting and templating.
"""
import base64
import copy
import glob
import os
import re
import subprocess
import sys
import tempfile

import yaml
import yaml_reader

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flowc_testlib as lib  # noqa: E402
import pod_readers as readers  # noqa: E402

REF = re.compile(r"\{\{ *([A-Za-z_][A-Za-z0-9_]*) *\}\}")
SCHEMA_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean",
                "list": "array"}


def param_text(value):
    """A param's value as `{{name}}` renders: strings as they are, the rest as compact JSON."""
    return readers.item_text(value)


CASES = "tests/golden/airflow/cases"


def cases():
    return sorted(os.path.relpath(p, lib.SOURCE_DIR)
                  for p in glob.glob(os.path.join(lib.SOURCE_DIR, CASES, "*.flow")))


def golden_path(path):
    name = os.path.splitext(os.path.basename(path))[0]
    if path.startswith(CASES):
        return os.path.join(CASES, name + ".py")
    return os.path.join("tests", "golden", "airflow", name + ".py")


def wire(value):
    """A YAML document as the API's JSON has it: !!binary (bytes) as base64 text."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, dict):
        return {k: wire(v) for k, v in value.items()}
    if isinstance(value, list):
        return [wire(v) for v in value]
    return value


def helper_task(node):
    """Whether a task id is one of the DAG's helpers rather than a step's task."""
    return any(mark in node for mark in ("-argv", "-items", "-objects", "-teardown"))


def expected_pod(ir_pod, params, run_id, item):
    pod = copy.deepcopy(ir_pod)
    container = pod["spec"]["containers"][0]

    def ref(match):
        # A value is written with each `$` doubled (flowc_text), which kubelet reads back.
        name = match.group(1)
        if name == "item":
            if item is None:
                raise AssertionError("{{item}} outside a foreach")
            return item.replace("$", "$$")
        if name == "run_id":
            return run_id
        return param_text(params[name]).replace("$", "$$")

    if "command" in container:
        container["command"] = [REF.sub(ref, arg) for arg in container["command"]]
    return pod


class FlowCheck:
    def __init__(self, path, failures):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.failures = failures
        self.ir = lib.ir_of(path)
        self.steps = {s["name"]: s for s in self.ir["steps"]}
        # Defaults, and readers.REQUIRED_VALUES for params without one.
        self.params = readers.airflow_param_values(self.ir)

    def fail(self, message):
        self.failures.append(f"{self.path}: {message}")

    def decode(self, record):
        """The step a task record runs, and the element its {{item}} stands for."""
        return readers.airflow_place(self.ir, self.params, record)

    def expected_runs(self, step_name):
        return readers.airflow_expected_runs(self.ir, self.params, step_name)

    def run(self, check_golden=True):
        result = lib.run_flowc("compile", self.path, "--target", "airflow", "-o", "-")
        if result.returncode != 0:
            self.fail(f"compile failed:\n{result.stderr}")
            return 0
        text = result.stdout
        if check_golden:
            lib.check_golden(golden_path(self.path), text, self.failures)
        if re.search(r"^import time$|time\.sleep|while True", text, re.M):
            self.fail("the DAG sleeps or loops: a waiting task would hold its worker slot")
        with tempfile.TemporaryDirectory() as tmp:
            dag_file = os.path.join(tmp, self.name + ".py")
            with open(dag_file, "w", encoding="utf-8") as f:
                f.write(text)
            compiled = subprocess.run([lib.PYTHON, "-m", "py_compile", dag_file],
                                      capture_output=True, text=True)
            if compiled.returncode != 0:
                self.fail(f"py_compile: {compiled.stderr}")
                return 1
            outputs = {}
            for version in ("3", "2"):
                out, error = readers.run_airflow_dag(dag_file, self.params, version)
                if out is None:
                    self.fail(f"running the DAG as on Airflow {version}:\n{error}")
                    return 1
                outputs[version] = out
            if outputs["2"] != outputs["3"]:
                self.fail("the DAG builds differently on Airflow 2 and 3")
            self.check(outputs["3"], tmp)
        return 1

    def check(self, out, tmp):
        self.check_dag(out["dag"])
        run_id = out["run_id"]
        runs = {}
        for kind in ("pods", "jobsets"):
            for record in out[kind]:
                try:
                    step_name, item, key = self.decode(record)
                except (AssertionError, KeyError, ValueError) as e:
                    self.fail(f"cannot place task {record['task_id']}: {e}")
                    continue
                step = self.steps[step_name]
                if (kind == "jobsets") != ("parallel" in step):
                    self.fail(f"step {step_name} ran as {kind}")
                runs.setdefault(step_name, set()).add(key)
                expected = expected_pod(step["pod"], self.params, run_id, item)
                where = f"{self.path}: {readers.airflow_record_label(record)}"
                # The step's Kueue labels go on what Kueue admits: the task's pod, or the
                # JobSet or TrainJob it creates (whose pods then have none).
                queue = (step.get("queue") or {}).get("labels", {})
                if kind == "pods":
                    actual = record["pod"]
                    if queue:
                        expected.setdefault("metadata", {}).setdefault("labels", {}).update(queue)
                else:
                    actual = self.gang_pod(record["jobset"], step, out["objects"], where)
                    labels = record["jobset"]["body"]["metadata"].get("labels") or {}
                    got = {k: v for k, v in labels.items() if k.startswith("kueue.x-k8s.io/")}
                    if got != queue:
                        self.fail(f"{where}: the created gang's Kueue labels are {got}, not "
                                  f"{queue}")
                self.failures.extend(lib.diff_pods(expected, actual, where))
        for name in self.steps:
            count = len(runs.get(name, ()))
            if count != self.expected_runs(name):
                self.fail(f"step {name} runs {count} times, the flow says "
                          f"{self.expected_runs(name)}")
        self.check_edges(out)
        self.check_objects(out)
        self.check_gangs(out)
        bodies = [j["jobset"]["body"] for j in out["jobsets"]]
        if bodies:
            manifest = os.path.join(tmp, self.name + "-gangs.yaml")
            with open(manifest, "w", encoding="utf-8") as f:
                yaml.safe_dump_all(bodies, f, allow_unicode=True, sort_keys=False)
            ok, report = lib.validate([manifest])
            if not ok:
                self.fail(f"the gangs its tasks create fail validation:\n{report}")

    def gang_pod(self, created, step, objects, where):
        nodes = step["parallel"]["nodes"]
        body = created["body"]
        if body.get("kind") == "TrainJob":
            runs = body["spec"]["trainer"].get("numNodes")
        else:
            rjobs = body["spec"]["replicatedJobs"]
            job = rjobs[0]["template"]["spec"]
            runs = job.get("parallelism") if job.get("completions") == nodes else None
            if len(rjobs) != 1:
                runs = None
        if runs != nodes:
            self.fail(f"{where}: the {body.get('kind')} does not run {nodes} pods")
        # The created object's kind and namespace are checked there, too.
        return readers.airflow_created_gang_pod(created, objects, where, self.failures)

    def check_dag(self, dag):
        if dag["dag_id"] != self.ir["flow"]:
            self.fail(f"dag_id {dag['dag_id']}")
        schedule = self.ir.get("schedule")
        if dag["schedule"] != (schedule["cron"] if schedule else None):
            self.fail(f"schedule {dag['schedule']}")
        timezone = (schedule or {}).get("timezone", "UTC")
        if dag["timezone"] != timezone:
            self.fail(f"timezone {dag['timezone']}, expected {timezone}")
        if dag["catchup"] is not False:
            self.fail("catchup is not False")
        params = dag["params"]
        if list(params) != [p["name"] for p in self.ir["params"]]:
            self.fail(f"params {list(params)}")
        for p in self.ir["params"]:
            got = params.get(p["name"], {})
            types = got.get("type")
            types = types if isinstance(types, list) else [types]
            if SCHEMA_TYPES[p["type"]] not in types:
                self.fail(f"param {p['name']}: type {got.get('type')}")
            if got.get("required") != ("default" not in p):
                self.fail(f"param {p['name']}: required {got.get('required')}")
            if "default" in p and got.get("default") != p["default"]:
                self.fail(f"param {p['name']}: default {got.get('default')!r}")

    def check_edges(self, out):
        """Edges between tasks and groups, as step pairs, against the flow's graph."""
        groups = out["groups"]

        def steps_of(node, first):
            if node in groups:
                body = [readers.split_id(t.split(".")[-1])[0] for t in groups[node]
                        if not helper_task(t)]
                name = readers.split_id(node.split(".")[-1])[0]
                # A group stands for its body: entered at its first step, left at the
                # steps whose successor lies outside it.
                if first:
                    return {name}
                return {s for s in body if any(n not in body for n in self.steps[s]["next"])}
            if helper_task(node):
                return set()
            return {readers.split_id(node.split(".")[-1])[0]}

        actual = set()
        for a, b in out["edges"]:
            for u in steps_of(a, False):
                for v in steps_of(b, True):
                    actual.add((u, v))
        expected = {(s["name"], n) for s in self.ir["steps"] for n in s["next"]}
        if actual != expected:
            self.fail(f"dependencies differ: missing {sorted(expected - actual)}, "
                      f"unexpected {sorted(actual - expected)}")


    def dag_nodes(self, out, step_name):
        """The DAG-level nodes running a step: its tasks, or the mapped groups holding it."""
        nodes = set()
        for task_id in out["task_ids"]:
            *groups, local = task_id.split(".")
            if helper_task(local) or readers.split_id(local)[0] != step_name:
                continue
            nodes.add(groups[0] if groups else task_id)
        return nodes

    def check_objects(self, out):
        ir_objects = {(o["kind"], o["namespace"], o["name"]): o for o in self.ir.get("objects", [])}
        created = {}
        for body in out["objects"]:
            key = (body["kind"], body["metadata"].get("namespace"), body["metadata"]["name"])
            if key in created:
                self.fail(f"object {key} created twice")
            created[key] = body
        if set(created) != set(ir_objects):
            self.fail(f"objects created {sorted(created)}, the IR has {sorted(ir_objects)}")
        # Their content: the documents the YAML targets put in their streams (the same
        # renderer; ConfigMap binaryData as the API's base64).
        for target in ("argo", "jobset"):
            result = lib.run_flowc("compile", self.path, "--target", target, "-o", "-")
            if result.returncode != 0:
                continue
            for doc in yaml_reader.load_all(result.stdout):
                key = (doc["kind"], doc["metadata"].get("namespace"), doc["metadata"]["name"])
                if key in ir_objects and wire(doc) != created.get(key):
                    self.fail(f"object {key}: created {created.get(key)}, --target {target} "
                              f"writes {doc}")
            break
        setup_of = {}
        for task_id, keys in out["setups"].items():
            for k in keys:
                setup_of[k] = task_id
        edges = set(map(tuple, out["edges"]))
        for step in self.ir["steps"]:
            for name in step.get("objects", []):
                obj = next(o for o in self.ir["objects"] if o["name"] == name)
                setup = setup_of.get(f"{obj['kind']}/{obj['namespace']}/{name}")
                if setup is None:
                    self.fail(f"no task creates {name}, which step {step['name']} needs")
                    continue
                for node in self.dag_nodes(out, step["name"]):
                    if (setup, node) not in edges:
                        self.fail(f"{setup} is not upstream of {node} (step {step['name']} "
                                  f"needs {name})")
            for claim in step["pod"]["spec"].get("resourceClaims", []):
                template = claim["resourceClaimTemplateName"]
                key = ("ResourceClaimTemplate", step["pod"]["metadata"].get("namespace"),
                       template)
                if template in step.get("objects", []) and key not in created:
                    self.fail(f"step {step['name']} names template {template}, never created")

    def check_gangs(self, out):
        edges = set(map(tuple, out["edges"]))
        for step in self.ir["steps"]:
            if "parallel" not in step:
                continue
            teardown = step["name"] + "-teardown"
            if teardown not in out["teardowns"]:
                self.fail(f"step {step['name']} has no teardown task that ran")
            for node in self.dag_nodes(out, step["name"]):
                if (node, teardown) not in edges:
                    self.fail(f"{teardown} is not downstream of {node}")
            for task_id, sensor in out["sensors"].items():
                if readers.split_id(task_id.split(".")[-1])[0] != step["name"]:
                    continue
                if sensor.get("mode") != "reschedule":
                    self.fail(f"{task_id}: a sensor in mode {sensor.get('mode')}")
                if "execution_timeout" in sensor:
                    self.fail(f"{task_id}: execution_timeout would bound each poke, not the try")
                retry = step.get("retry", {}).get("times")
                if sensor.get("retries") != retry:
                    self.fail(f"{task_id}: retries {sensor.get('retries')}, @retry says {retry}")


def check_errors(failures):
    """What the target cannot express: one E050 per construct, at its line."""
    cases = {
        "nested_param_foreach": ("""flow nested_param_foreach {
  param xs: list = ["a"]
  param ys: list = ["b"]
  step start { run "echo" next a foreach xs }
  step a { run "echo {{item}}" next b foreach ys }
  step b { run "echo {{item}}" next c }
  step c { run "echo" next d }
  step d { run "echo" next end }
  step end { run "echo" }
}
""", ["5:8: error: the foreach of step 'a' over list param 'ys' is nested in the foreach of "
      "step 'start', and Airflow cannot map tasks inside a mapped task group [E050]"]),
        "scheduled_required": ("""@schedule(daily=true)
flow scheduled_required {
  param day: str
  step start { run "echo {{day}}" next end }
  step end { run "echo" }
}
""", ["3:9: error: param 'day' has no default, and Airflow cannot schedule a DAG with a "
      "required param [E050]"]),
    }
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (source, messages) in cases.items():
            path = os.path.join(tmp, name + ".flow")
            with open(path, "w", encoding="utf-8") as f:
                f.write(source)
            result = lib.run_flowc("compile", path, "--target", "airflow", "-o", "-")
            checked += 1
            if result.returncode != 1 or result.stdout:
                failures.append(f"{name}: expected exit 1 and no output, got "
                                f"{result.returncode} and {len(result.stdout)} bytes")
            for message in messages:
                if f"{path}:{message}" not in result.stderr:
                    failures.append(f"{name}: missing diagnostic {message!r} in:\n{result.stderr}")
    return checked


def main():
    failures = []
    checked = 0
    try:
        import jinja2  # noqa: F401
    except ImportError:
        failures.append("python3-jinja2 is missing: templated fields cannot be rendered "
                        "(add it to the setup script)")
    if not failures:
        for path in lib.samples() + lib.test_flows() + cases():
            checked += FlowCheck(path, failures).run()
        checked += check_errors(failures)
    lib.finish("test_airflow", failures, max(checked, 1))


if __name__ == "__main__":
    main()
