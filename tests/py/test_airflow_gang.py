"""The Airflow wait for a @parallel step's gang (templates/airflow/flowc_gang.py), poke by poke
against a fake Kubernetes API (tests/py/airflow_stub/fake_kube.py).

flowc_gang is the callable of a sensor in reschedule mode: Airflow calls it once per poke and
frees the worker slot in between; try_number stays the same across the pokes of a try. Each
case pokes it as Airflow would, with time.sleep made to raise, and checks what the API server
was asked to do:
  - Running, then Completed: created on the first poke, read on the next, deleted, done;
  - Running, then Failed: the task fails and the gang is deleted;
  - @timeout: a try older than timeout_seconds (from the gang's creation) deletes the gang and
    fails; before that it keeps waiting;
  - @retry: the next try creates a gang of its own; a try that finds an earlier try's gang left
    behind (a cleared or killed task) deletes it;
  - the teardown deletes every gang of the step in this run, and no other;
  - a TrainJob (trainer.kubeflow.org/v1alpha1 trainjobs, ended by condition Complete or
    Failed) goes through the same code, its kind and end rules given as data;
  - Kueue: a JobSet or TrainJob queued (suspended, condition Suspended True), then admitted
    (Suspended False, kept in its place) is waiting until it ends, and @timeout counts the
    wait in the queue too;
  - commands are rendered with params and the element, nothing else in the manifest;
and that no template and no generated DAG sleeps or loops.
"""
import ast
import datetime
import glob
import os
import re
import sys
import time

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "airflow_stub"))
import dag_helpers  # noqa: E402
import fake_kube  # noqa: E402
import flowc_testlib as lib  # noqa: E402

JOBSET = """\
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: flow-train
  namespace: ml
spec:
  replicatedJobs:
    - name: train
      replicas: 1
      template:
        spec:
          template:
            spec:
              containers:
                - name: main
                  image: img
                  command: [torchrun, "--lr={{ params.lr }}", "--shard={{ item }}"]
                  env:
                    - name: KEEP
                      value: "{{ params.lr }}"
"""
JOBSET_API = ("jobset.x-k8s.io", "v1alpha2", "jobsets")
# A queued TrainJob as flowc writes it (backends/k8s/trainjob.cc): created suspended.
TRAINJOB_QUEUED = """\
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: flow-train
  namespace: ml
  labels:
    kueue.x-k8s.io/queue-name: ml-trainium
spec:
  runtimeRef: {apiGroup: trainer.kubeflow.org, kind: TrainingRuntime, name: flow-train}
  trainer:
    command: [torchrun, "--lr={{ params.lr }}"]
    numNodes: 2
  suspend: true
"""
TRAINJOB_ENDS = {"failed": [{"condition": "Failed"}], "succeeded": [{"condition": "Complete"}]}
START = datetime.datetime(2025, 3, 1, 8, 0, 0, tzinfo=datetime.timezone.utc)


class Clock:
    def __init__(self):
        self.now = START

    def __call__(self):
        return self.now


class TI:
    def __init__(self, task_id="train", map_index=-1, try_number=1, dag_id="flow"):
        self.dag_id, self.task_id, self.map_index, self.try_number = (
            dag_id, task_id, map_index, try_number)


class Task:
    """The operator's render_template, with the DAG's user_defined_filters."""

    def __init__(self, filters):
        self.filters = filters

    def render_template(self, content, values):
        import jinja2
        env = jinja2.Environment(undefined=jinja2.StrictUndefined)
        env.filters.update(self.filters)
        return env.from_string(content).render(values)


def dag_tables(sample):
    """(FLOWC_GANGS, FLOWC_GANG_ENDS) as a compiled DAG has them (the backend's, not this
    test's)."""
    text = lib.compile_flow(sample, "airflow")

    def literal(name):
        return ast.literal_eval(text.split(f"\n{name} = ", 1)[1].split("\n}\n", 1)[0] + "\n}")

    return literal("FLOWC_GANGS"), literal("FLOWC_GANG_ENDS")


def dag_ends():
    return dag_tables("samples/trainium_multinode.flow")[1]


class Gangs:
    """The helpers of one DAG, bound to a fake API and a clock."""

    def __init__(self, script, manifest=JOBSET, kind="JobSet", ends=None):
        self.clock = Clock()
        self.kube = fake_kube.FakeKube(gang_script=script, clock=self.clock)
        self.ns = dag_helpers.load(self.kube, {
            "FLOWC_GANGS": {"train": manifest},
            "FLOWC_GANG_ENDS": {kind: ends} if ends else dag_ends()}, clock=self.clock)
        self.ns["flowc_text"] = lambda v: v if isinstance(v, str) else str(v)

    def context(self, ti, run_id="manual__1"):
        return {"ti": ti, "run_id": run_id, "params": {"lr": 0.5, "steps": 20000},
                "task": Task({"flowc_text": self.ns["flowc_text"]})}

    def poke(self, ti, timeout_seconds=None, item="a", run_id="manual__1"):
        return self.ns["flowc_gang"](step="train", item=item, timeout_seconds=timeout_seconds,
                                     **self.context(ti, run_id))

    def teardown(self, run_id="manual__1"):
        self.ns["flowc_gang_teardown"](step="train", **self.context(TI("train-teardown"), run_id))

    def names(self, plural="jobsets"):
        return self.kube.named(plural)

    def verbs(self):
        return [e[0] for e in self.kube.log if e[1] != "jobsets" or e[0] != "list"]


class Case:
    def __init__(self):
        self.failures = []
        self.checked = 0

    def expect(self, what, condition, detail=""):
        self.checked += 1
        if not condition:
            self.failures.append(f"{what}{': ' + repr(detail) if detail != '' else ''}")


def raises(fn):
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - the task's failure is what is checked
        return error
    return None


def main():
    c = Case()

    def no_sleep(seconds):
        raise AssertionError(f"slept {seconds} s")
    time.sleep = no_sleep

    # Running, then Completed.
    g = Gangs(["Running", "Completed"])
    ti = TI()
    results = [g.poke(ti) for _ in range(3)]
    c.expect("completed: not done, not done, done", results == [False, False, True], results)
    c.expect("completed: created once, read twice, deleted",
             [e[0] for e in g.kube.log] == ["read", "create", "read", "read", "delete"],
             g.kube.log)
    c.expect("completed: no gang left", g.names() == [], g.names())
    created = g.kube.log[1]
    c.expect("completed: named <base>-<8 hex> per try",
             re.fullmatch(r"flow-train-[0-9a-f]{8}", created[3]) is not None, created)

    # The created manifest: commands rendered, everything else as written, labels added.
    g = Gangs(["Running"])
    g.poke(TI(map_index=3), item="shard-7")
    (stored,) = g.kube.objects.values()
    container = stored["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
        "containers"][0]
    c.expect("render: the command", container["command"] ==
             ["torchrun", "--lr=0.5", "--shard=shard-7"], container["command"])
    c.expect("render: nothing else", container["env"] == [{"name": "KEEP",
                                                           "value": "{{ params.lr }}"}])
    labels = stored["metadata"]["labels"]
    c.expect("labels: flowc/step and flowc/task, 32 hex digits each",
             sorted(labels) == ["flowc/step", "flowc/task"] and
             all(re.fullmatch(r"[0-9a-f]{32}", v) for v in labels.values()), labels)

    # Running, then Failed.
    g = Gangs(["Running", "Failed"])
    ti = TI()
    first, second = g.poke(ti), g.poke(ti)
    error = raises(lambda: g.poke(ti))
    c.expect("failed: waits, then fails", [first, second] == [False, False] and
             isinstance(error, RuntimeError) and " failed: " in str(error), (first, error))
    c.expect("failed: no gang left", g.names() == [], g.names())

    # @timeout: the try's age from the gang's creation.
    g = Gangs(["Running"])
    ti = TI()
    g.poke(ti, timeout_seconds=3600)
    g.clock.now = START + datetime.timedelta(seconds=3600)
    c.expect("timeout: at the limit, still waiting", g.poke(ti, timeout_seconds=3600) is False)
    g.clock.now = START + datetime.timedelta(seconds=3601)
    error = raises(lambda: g.poke(ti, timeout_seconds=3600))
    c.expect("timeout: past it, the task fails", isinstance(error, RuntimeError) and
             str(error).endswith("ran past @timeout (3600 s)"), error)
    c.expect("timeout: no gang left", g.names() == [], g.names())

    # Kueue: a queued (suspended) gang is waiting, not failed; its wait counts toward @timeout.
    for kind, manifest, ends in (("JobSet", JOBSET, None),
                                 ("TrainJob", TRAINJOB_QUEUED, TRAINJOB_ENDS)):
        for last, outcome in (("Completed", True), ("Failed", False)):
            g = Gangs(["Queued", "Queued", "Running", last], manifest=manifest, kind=kind,
                      ends=ends)
            ti = TI()
            # The first poke creates it; the next three read it queued, queued, running.
            waits = [g.poke(ti, timeout_seconds=3600) for _ in range(4)]
            done = []
            error = raises(lambda: done.append(g.poke(ti, timeout_seconds=3600)))
            c.expect(f"queued {kind} {last}: waits while suspended and running",
                     waits == [False, False, False, False], waits)
            c.expect(f"queued {kind} {last}: " + ("done" if outcome else "fails"),
                     (error is None and done == [True]) if outcome else
                     isinstance(error, RuntimeError) and " failed: " in str(error),
                     (error, done))
        g = Gangs(["Queued"], manifest=manifest, kind=kind, ends=ends)
        ti = TI()
        g.poke(ti, timeout_seconds=3600)
        g.clock.now = START + datetime.timedelta(seconds=3600)
        c.expect(f"queued {kind}: suspended up to @timeout, still waiting",
                 g.poke(ti, timeout_seconds=3600) is False)
        g.clock.now = START + datetime.timedelta(seconds=3601)
        error = raises(lambda: g.poke(ti, timeout_seconds=3600))
        c.expect(f"queued {kind}: suspended past @timeout, the task fails and deletes it",
                 isinstance(error, RuntimeError) and "ran past @timeout" in str(error) and
                 g.names(kind.lower() + "s") == [], error)

    # @retry: a fresh gang per try.
    g = Gangs(["Running", "Failed", "Running", "Completed"])
    ti = TI(try_number=1)
    g.poke(ti)
    name_1 = g.names()[0]
    raises(lambda: g.poke(ti))
    raises(lambda: g.poke(ti))
    ti = TI(try_number=2)
    g.poke(ti)
    name_2 = g.names()
    c.expect("retry: the second try has a gang of its own", len(name_2) == 1 and
             name_2[0] != name_1, (name_1, name_2))

    # A cleared task: try 1's gang left running, try 2 deletes it when it creates its own.
    g = Gangs(["Running"])
    g.poke(TI(try_number=1))
    g.poke(TI(try_number=1))
    left = g.names()
    g.poke(TI(try_number=2))
    now = g.names()
    c.expect("cleared: the earlier try's gang is deleted",
             len(now) == 1 and now != left and ("delete", "jobsets", "ml", left[0]) in g.kube.log,
             (left, now))
    # ...but not another element's gang (another map index) nor another run's.
    g = Gangs(["Running"])
    g.poke(TI(map_index=0))
    g.poke(TI(map_index=1))
    g.poke(TI(map_index=0), run_id="manual__2")
    other_run = [e[3] for e in g.kube.log if e[0] == "create"][-1]
    c.expect("elements and runs keep their gangs", len(g.names()) == 3, g.names())

    # The teardown: every gang of this step in this run, whatever the element or try.
    g.teardown()
    c.expect("teardown: this run's gangs deleted, the other run's kept",
             g.names() == [other_run], g.names())
    g.teardown(run_id="manual__2")
    c.expect("teardown: the other run's, by its own teardown", g.names() == [], g.names())
    g.teardown()
    c.expect("teardown: nothing left is no error", g.names() == [])

    # A @trainjob step's TrainJob, as the compiled sample has it: the same code, its end
    # rules as data, its trainer's command rendered.
    gangs, trainjob_ends = dag_tables("samples/trainjob_neuron_gang.flow")
    c.expect("the DAG's end rules for TrainJob", trainjob_ends == {"TrainJob": {
        "failed": [{"condition": "Failed"}], "succeeded": [{"condition": "Complete"}]}},
        trainjob_ends)
    trainjob = gangs["train"]
    for script, outcome in ((["Running", "Completed"], True), (["Running", "Failed"], False)):
        g = Gangs(script, manifest=trainjob, kind="TrainJob", ends=trainjob_ends["TrainJob"])
        ti = TI()
        g.poke(ti)
        (stored,) = g.kube.objects.values()
        command = stored["spec"]["trainer"]["command"]
        c.expect(f"trainjob {script[-1]}: the trainer's command rendered",
                 command[-2:] == ["--max-steps", "20000"], command)
        g.poke(ti)
        done = []
        result = raises(lambda: done.append(g.poke(ti)))
        c.expect(f"trainjob {script[-1]}: " + ("done" if outcome else "fails"),
                 (result is None and done == [True]) if outcome else
                 isinstance(result, RuntimeError), (result, done))
        c.expect(f"trainjob {script[-1]}: created in trainjobs, then deleted",
                 ("create", "TrainJob", "ml") == g.kube.log[1][:3] and
                 g.names("trainjobs") == [], g.kube.log)

    # The backend's table: JobSet ends by status.terminalState.
    ends = dag_ends()
    c.expect("the DAG's end rules for JobSet", ends == {"JobSet": {
        "failed": [{"field": "terminalState", "value": "Failed"}],
        "succeeded": [{"field": "terminalState", "value": "Completed"}]}}, ends)

    # Nothing sleeps or loops: the templates, and every DAG the goldens hold.
    for path in sorted(glob.glob(os.path.join(lib.SOURCE_DIR, "templates", "airflow", "*.py")) +
                       glob.glob(os.path.join(lib.SOURCE_DIR, "tests", "golden", "airflow",
                                              "**", "*.py"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        c.expect(f"{os.path.relpath(path, lib.SOURCE_DIR)}: no sleep, no loop, no time module",
                 not re.search(r"time\.sleep|while True|^import time$|^from time ", text, re.M))

    lib.finish("test_airflow_gang", c.failures, c.checked)


if __name__ == "__main__":
    main()
