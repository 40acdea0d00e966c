"""Values given at run time reach the container byte for byte (issues 13 and 14).

tests/flows/runtime_values.flow uses params of every type and foreach elements (a list param's
and literal lists') in plain steps and in gangs, next to literal text that could pair with
them. For each run below, every target with run-time values makes its pods:
  - Argo through tests/py/argo_model.py, the model of Argo's substitution passes, as v3.7 and
    as v4.1, with the values submitted as `argo submit -p` would;
  - Airflow through tests/py/airflow_stub, which renders the DAG with real Jinja as a worker
    does, with the values given as a run's params;
then kubelet's expansion of `$(VAR)` and `$$` (argo_model.kubelet_expand, from kubernetes'
expansion.go) gives each container's argv. It must equal the flow's command with each
reference replaced by its value exactly: a string as it is, anything else as the IR writes
it (1e+15, true, compact JSON). Each step must run once per element, and every pod must carry
the flow's annotation unchanged (no element may swallow the text after it). The values are the
hostile ones: kubelet's `$(HOME)`, `$$` and `$(`, Argo's and Jinja's braces (`{{`, `{{ open`,
`}}`, `{{ds}}`), quotes, line breaks, non-ASCII text, `x$` before a literal `(`. The model
checks itself first (argo_model.selftest).
"""
import json
import os
import tempfile

import yaml_reader

import argo_model
import flowc_testlib as t
import pod_readers

FLOW = os.path.join("tests", "flows", "runtime_values.flow")
RUN = "values-x7k2p"  # the workflow's name on Argo

HOSTILE = ["$(HOME)", "$$", "$(", "{{", "{{ open", "}}", "'\"", "a\nb", "über 10:00",
           "日本 $HOME", "{{ds}}", "{{name}}", "x$", "\\", "$ü", "%7B\\u007b", "plain"]


def runs():
    """The params of each run: every hostile value as the str params, and all of them (with a
    number, a bool and a list) as the list param's elements; `mixed` holds floats of every
    shape, an integer a float64 would round, and maps and lists holding them, which must
    reach the pod as the IR writes them (1000.0, -0.0, 5e-07, keys sorted)."""
    out = [{}]  # the defaults
    for i, value in enumerate(HOSTILE):
        out.append({"text": value, "other": HOSTILE[(i + 7) % len(HOSTILE)],
                    "texts": HOSTILE if i == 0 else [value, 3, True, ["x", value]],
                    "count": -7, "ratio": 0.5, "flag": False,
                    "mixed": [value, 1e3, -0.0, 1e21, 5e-7, 2**53 + 1, 0.1, None,
                              {"b": [1.0, value], "a": "<&>\u2028\\u2028", value: 2.50},
                              [0.5, [value, 1e-300]]]})
    return out


def ir_text(value):
    """A value's text as `{{name}}` renders it: a string as it is, anything else as the IR's
    JSON (pod_readers.item_text)."""
    return pod_readers.item_text(value)


def expected_argv(ir_command, values, env):
    """The argv the flow asks for: each literal part as kubelet reads it (the IR escaped it for
    kubelet), each reference its value's text exactly."""
    out = []
    for arg in ir_command:
        parts = []
        last = 0
        for m in pod_readers.REFERENCE.finditer(arg):
            parts.append(argo_model.kubelet_expand(arg[last:m.start()], env))
            parts.append(values[m.group(1)])
            last = m.end()
        parts.append(argo_model.kubelet_expand(arg[last:], env))
        out.append("".join(parts))
    return out


def container_env(container):
    env = {}
    for var in container.get("env") or []:
        if "value" in var:
            env[var["name"]] = argo_model.kubelet_expand(var["value"], env)
        else:  # the downward API: FLOWC_NODE_INDEX, FLOWC_JOBSET_NAME
            env[var["name"]] = "<%s>" % var["name"]
    return env


def jobset_container(jobset):
    return jobset["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
        "containers"][0]


NO_ELEMENT = object()  # a step outside every foreach


def expectations(ir, params):
    """{step: sorted [argv]} the flow asks for with `params` (text per IR), and {step: env}."""
    texts = {p["name"]: ir_text(params.get(p["name"], p.get("default"))) for p in ir["params"]}
    steps = {s["name"]: s for s in ir["steps"]}
    out = {}
    for step in ir["steps"]:
        container = step["pod"]["spec"]["containers"][0]
        env = container_env(container)
        chain = step.get("enclosing_foreach", [])
        if not chain:
            elements = [NO_ELEMENT]
        else:
            foreach = steps[chain[-1]]["foreach"]
            elements = foreach["items"] if "items" in foreach else params.get(
                foreach["param"], next(p["default"] for p in ir["params"]
                                       if p["name"] == foreach["param"]))
        argvs = []
        for element in elements:
            values = dict(texts, run_id="<run>")
            if element is not NO_ELEMENT:  # an element may be null
                values["item"] = ir_text(element)
            argvs.append(expected_argv(container["command"], values, env))
        out[step["name"]] = sorted(argvs)
    return out


def compare(where, expected, actual, failures):
    for step in sorted(set(expected) | set(actual)):
        want, got = expected.get(step, []), sorted(actual.get(step, []))
        if want == got:
            continue
        missing = [a for a in want if a not in got]
        extra = [a for a in got if a not in want]
        failures.append(f"{where}: step {step}: {len(got)} pods, {len(want)} expected; "
                        f"expected {json.dumps(missing[:2], ensure_ascii=False)}, got "
                        f"{json.dumps(extra[:2], ensure_ascii=False)}")


def argo_argvs(docs, version, params, ir, annotations, failures, where):
    """{step: [argv]} of the pods one run on Argo makes (run ids spelled <run>)."""
    k8s = {s["k8s_name"]: s["name"] for s in ir["steps"]}
    submitted = {k: v if isinstance(v, str) else ir_text(v) for k, v in params.items()}
    try:
        created = argo_model.run(docs, version, submitted, name=RUN)
    except argo_model.ArgoError as e:
        failures.append(f"{where}: Argo {version} fails the run: {e}")
        return {}
    out = {}
    for c in created:
        obj = c["object"]
        if c["kind"] == "Pod":
            container = obj["spec"]["containers"][-1]
            metadata = obj["metadata"]
        else:
            container = jobset_container(obj)
            metadata = obj["spec"]["replicatedJobs"][0]["template"]["spec"]["template"].get(
                "metadata", {})
        if metadata.get("annotations") != annotations:
            failures.append(f"{where}: Argo {version}: {c['template']}: annotations "
                            f"{json.dumps(metadata.get('annotations'), ensure_ascii=False)}")
        argv = [a.replace(RUN, "<run>") for a in argo_model.container_argv(container)]
        out.setdefault(k8s[c["template"]], []).append(argv)
    return out


def airflow_argvs(dag_path, params, ir, annotations, failures, where):
    """{step: [argv]} of the pods one run of the DAG makes (run ids spelled <run>)."""
    given = dict(params)
    for p in ir["params"]:
        given.setdefault(p["name"], p["default"])
    out, error = pod_readers.run_airflow_dag(dag_path, given)
    if error:
        failures.append(f"{where}: the DAG does not run:\n{error}")
        return {}
    argvs = {}
    for kind in ("pods", "jobsets"):
        for record in out[kind]:
            try:
                step, _, _ = pod_readers.airflow_place(ir, given, record)
            except (AssertionError, KeyError, ValueError, IndexError) as e:
                failures.append(f"{where}: cannot place {record['task_id']}: {e}")
                continue
            if kind == "pods":
                pod = record["pod"]
                container = pod["spec"]["containers"][0]
                metadata = pod["metadata"]
            else:
                body = record["jobset"]["body"]
                container = jobset_container(body)
                metadata = body["spec"]["replicatedJobs"][0]["template"]["spec"]["template"].get(
                    "metadata", {})
            if metadata.get("annotations") != annotations:
                failures.append(f"{where}: {record['task_id']}: annotations "
                                f"{json.dumps(metadata.get('annotations'), ensure_ascii=False)}")
            argv = [a.replace(out["run_id"], "<run>") for a in argo_model.container_argv(container)]
            argvs.setdefault(step, []).append(argv)
    return argvs


# Literal arguments of the flow's own, as the container must receive them: the IR's escaping
# for kubelet is checked against the flow's text, not against the IR itself.
LITERALS = {"start": {1: "%s|", 9: "$ü"}}


def check_literals(expected, failures):
    for step, args in LITERALS.items():
        for argv in expected[step]:
            for index, text in args.items():
                if argv[index] != text:
                    failures.append(f"step {step}: argument {index} reaches the container as "
                                    f"{argv[index]!r}, the flow says {text!r}")


def main():
    failures = []
    checked = 0
    failures.extend(f"argo_model self-test: {f}" for f in argo_model.selftest())
    ir = t.ir_of(FLOW)
    check_literals(expectations(ir, {}), failures)
    annotations = ir["steps"][0]["pod"]["metadata"]["annotations"]
    docs = list(yaml_reader.load_all(t.compile_flow(FLOW, "argo")))
    tmp = tempfile.mkdtemp(prefix="flowc-values-")
    dag_path = os.path.join(tmp, "runtime_values.py")
    with open(dag_path, "w", encoding="utf-8") as f:
        f.write(t.compile_flow(FLOW, "airflow"))
    for n, params in enumerate(runs()):
        expected = expectations(ir, params)
        for version in (3, 4):
            where = f"run {n} ({json.dumps(params.get('text'), ensure_ascii=False)})"
            compare(f"{where} Argo {version}", expected,
                    argo_argvs(docs, version, params, ir, annotations, failures, where), failures)
            checked += 1
        compare(f"{where} Airflow", expected,
                airflow_argvs(dag_path, params, ir, annotations, failures, where), failures)
        checked += 1
    t.finish("test_runtime_values", failures, checked)


if __name__ == "__main__":
    main()
