"""Text that looks like Jinja reaches every pod byte for byte on Airflow (issue 31).

Airflow renders a task's templated fields with Jinja, and with them the values of a mapped
task's literal expand() arguments (not those resolved at run time: an XCom, a mapped task
group's argument). tests/py/airflow_stub/run_dag.py models that (Runner.mapped_value, from
airflow/models/expandinput.py and mappedoperator.py in 2.10, task-sdk/src/airflow/sdk/
definitions/_internal/expandinput.py and templater.py in 3.x). On
tests/golden/airflow/cases/jinja_items.flow, which has Jinja-looking literal items on every path
(a mapped task, a mapped JobSet gang, a mapped TrainJob gang, a mapped task group with a gang in
it and one with a literal foreach written out inside, gangs among them), Jinja-looking
@environment values and a param, this test:
  1. runs the DAG (as on Airflow 3 and 2) with the param given at trigger time as each of the
     values below, and checks every pod and every gang's pods against the IR's, with the
     references replaced by their values exactly (tests/py/test_airflow.py FlowCheck);
  2. checks the names derived from the items: task ids, map indexes and the names of the gangs
     the tasks create hold none of an item's text, only step names, indexes and hashes;
  3. checks that the model would catch the defect: the same DAG with the escaping of one literal
     item removed fails to run or renders another pod.
"""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flowc_testlib as lib  # noqa: E402
import pod_readers as readers  # noqa: E402
import test_airflow  # noqa: E402

FLOW = os.path.join("tests", "golden", "airflow", "cases", "jinja_items.flow")

# The param's values at trigger time: each Jinja delimiter alone, in pairs that would open and
# close a block around the text after them, and a reference Airflow's context would fill.
VALUES = ["{{ ds }}", "{% raw %}", "{# c", "}} {{", "{%", "{{", "}}", "{% endraw %}",
          "{{ params.text }}", "{% raw %}x{% endraw %}", "#}", "{{ '{{' }}"]

TASK_ID = re.compile(r"^[A-Za-z0-9_.-]+$")
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


def check_values(failures):
    checked = 0
    for value in VALUES:
        before = len(failures)
        check = test_airflow.FlowCheck(FLOW, failures)
        check.params = {"text": value}
        checked += check.run(check_golden=False)
        for i in range(before, len(failures)):
            failures[i] = f"text={value!r}: {failures[i]}"
    return checked


def check_names(failures):
    ir = lib.ir_of(FLOW)
    items = {item for s in ir["steps"] for item in (s.get("foreach") or {}).get("items", [])}
    with tempfile.TemporaryDirectory() as tmp:
        dag = os.path.join(tmp, "jinja_items.py")
        with open(dag, "w", encoding="utf-8") as f:
            f.write(lib.compile_flow(FLOW, "airflow"))
        out, error = readers.run_airflow_dag(dag, readers.airflow_param_values(ir))
    if out is None:
        failures.append(f"the DAG does not run:\n{error}")
        return 1
    names = [("task id", t) for t in out["task_ids"]]
    names += [("gang", j["jobset"]["body"]["metadata"]["name"]) for j in out["jobsets"]]
    for kind, name in names:
        pattern = TASK_ID if kind == "task id" else DNS_LABEL
        if not pattern.match(name) or any(item in name for item in items if len(item) > 1):
            failures.append(f"{kind} {name!r} is not a name made of step names and indexes")
    gangs = sum(1 for j in out["jobsets"])
    # gang 4, train 3, outer 2 (one per group instance), second_inner 2 x 2.
    if gangs != 13:
        failures.append(f"{gangs} gangs ran, the flow has 13")
    return len(names)


def check_control(failures):
    """The escaped item `{{ ds }}` written raw must break the run: the model renders it."""
    text = lib.compile_flow(FLOW, "airflow")
    escaped = json.dumps("{{ '{{' }} ds }}")
    if escaped not in text:
        failures.append(f"the DAG holds no {escaped}")
        return 1
    broken = text.replace(escaped, json.dumps("{{ ds }}"))
    ir = lib.ir_of(FLOW)
    with tempfile.TemporaryDirectory() as tmp:
        dag = os.path.join(tmp, "jinja_items.py")
        with open(dag, "w", encoding="utf-8") as f:
            f.write(broken)
        out, error = readers.run_airflow_dag(dag, readers.airflow_param_values(ir))
    if out is not None:
        failures.append("a raw '{{ ds }}' in the DAG's literal items ran unnoticed")
    elif "'ds' is undefined" not in error:
        failures.append(f"the raw '{{{{ ds }}}}' failed otherwise:\n{error[-1500:]}")
    return 1


def main():
    failures = []
    checked = check_values(failures)
    checked += check_names(failures)
    checked += check_control(failures)
    lib.finish("test_airflow_jinja", failures, checked)


if __name__ == "__main__":
    main()
