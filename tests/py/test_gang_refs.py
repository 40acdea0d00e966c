"""Gang references on every target (docs/language.md "Gang references"; issue 14).

Compiles tests/flows/gang_refs.flow for argo, airflow and jobset and reads each target's pods
back with the independent readers of tests/py/pod_readers.py (python3-yaml; the Airflow DAG
run against tests/py/airflow_stub). For each @parallel step it then plays kubelet: each env
var is expanded, in order, against the ones defined before it, and the command against them
all (k8s.io/kubernetes third_party/forked/golang/expansion: `$$` is `$`, `$(NAME)` a defined
variable's value, anything else as written), with the downward-API values of one pod of the
gang stood in. It checks that:
  - flowc's FLOWC_* variables come first, then the user's in written order, then TMPDIR;
  - {{num_nodes}}, {{node_index}} and {{main_addr}} reach the container as that pod's own
    values, in the run and in @environment values, NEURON_RT_ROOT_COMM_ID included;
  - every other `$` and `$(` reaches the container as written.
A failure reads `target 'argo' [task]: step 'train': env NAME: expected ..., got ...`.
"""
import os
import tempfile

import flowc_testlib as t
import pod_readers as r

FLOW = "tests/flows/gang_refs.flow"
JOBSET = "js-abc"  # the JobSet name the pod's label gives FLOWC_JOBSET_NAME
INDEX = "2"        # the pod's completion index, FLOWC_NODE_INDEX

FLOWC_VARS = ["FLOWC_JOBSET_NAME", "FLOWC_NUM_NODES", "FLOWC_NODE_INDEX", "FLOWC_MAIN_ADDR"]
FIELD_VALUES = {
    "metadata.labels['jobset.sigs.k8s.io/jobset-name']": JOBSET,
    "metadata.annotations['batch.kubernetes.io/job-completion-index']": INDEX,
}

# What each step's container must receive.
EXPECTED = {
    "train": {
        "env": [
            ("NEURON_RT_ROOT_COMM_ID", f"{JOBSET}-train-0-0.{JOBSET}:62182"),
            ("WORLD", f"4 nodes, rank {INDEX}"),
            ("PRICE", f"cost$${INDEX}"),
            ("LITERAL", "$(HOME) stays"),
            ("TMPDIR", "/tmp"),
        ],
        # The arguments before the first param reference, which targets spell differently.
        "command": ["torchrun", "--nnodes", "4", "--node_rank", INDEX, "--master_addr",
                    f"{JOBSET}-train-0-0.{JOBSET}", "train.py"],
    },
    "evaluate": {
        "env": [],
        "command": ["/bin/sh", "-c",
                    f"python eval.py --rank={INDEX} --of=2 --main=$HOME@{JOBSET}-evaluate-0-0."
                    f"{JOBSET} $(date) $$2"],
    },
}


def expand(text, defined):
    """`text` as kubelet expands it with the variables in `defined`."""
    out = []
    i = 0
    while i < len(text):
        if text[i] == "$" and i + 1 < len(text):
            if text[i + 1] == "$":
                out.append("$")
                i += 2
                continue
            close = text.find(")", i + 2)
            if text[i + 1] == "(" and close != -1 and text[i + 2:close] in defined:
                out.append(defined[text[i + 2:close]])
                i = close + 1
                continue
        out.append(text[i])
        i += 1
    return "".join(out)


def check_pod(pod, step, where, failures):
    container = pod["spec"]["containers"][0]
    env = container.get("env", [])
    names = [e["name"] for e in env]
    if names[:4] != FLOWC_VARS:
        failures.append(f"{where}: step '{step}': env starts {names[:4]}, not {FLOWC_VARS}")
        return
    expected = EXPECTED[step]
    if names[4:] != [name for name, _ in expected["env"]]:
        failures.append(f"{where}: step '{step}': user env {names[4:]}")
    defined = {}
    for e in env:
        if "valueFrom" in e:
            defined[e["name"]] = FIELD_VALUES[e["valueFrom"]["fieldRef"]["fieldPath"]]
        else:
            defined[e["name"]] = expand(e["value"], defined)
    for name, value in expected["env"]:
        if defined.get(name) != value:
            failures.append(f"{where}: step '{step}': env {name}: expected {value!r}, "
                            f"got {defined.get(name)!r}")
    command = [expand(arg, defined) for arg in container["command"]]
    want = expected["command"]
    if command[:len(want)] != want:
        failures.append(f"{where}: step '{step}': command: expected {want}, got {command}")


def main():
    failures = []
    checked = 0
    ir = t.ir_of(FLOW)
    with tempfile.TemporaryDirectory() as tmp:
        for target in ("argo", "airflow", "jobset"):
            text = t.compile_flow(FLOW, target)
            problems = []
            if target == "argo":
                pods = r.argo_pods(text, ir, problems, where=FLOW)
            elif target == "jobset":
                pods = r.jobset_pods(text, ir, problems, where=FLOW)
            else:
                dag = os.path.join(tmp, "gang_refs.py")
                with open(dag, "w", encoding="utf-8") as f:
                    f.write(text)
                pods = r.airflow_pods(dag, ir, problems, where=FLOW)
            failures.extend(f"{p} (target '{target}')" for p in problems)
            for step in EXPECTED:
                if not pods.get(step):
                    failures.append(f"target '{target}': no pod for step '{step}'")
                for inst in pods.get(step, []):
                    checked += 1
                    check_pod(inst["pod"], step, f"target '{target}' [{inst['label']}]", failures)
    # The reference pods themselves: the IR is what every target renders.
    for step in ir["steps"]:
        if step["name"] in EXPECTED:
            checked += 1
            check_pod(step["pod"], step["name"], "ir", failures)
    t.finish("test_gang_refs", failures, checked)


if __name__ == "__main__":
    main()
