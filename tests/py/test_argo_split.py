"""End-to-end tests of flows over Argo's limits (issue 33): a WorkflowTemplate holds at most 200
templates and a DAG at most 200 tasks (the v4 CRD's maxItems), and flowc splits what is bigger.

For flows of 201, 250, 1,000 and 10,000 steps from bench/gen_flow.py (branches, nested foreach,
gangs bounded by @timeout, retries, a schedule), for a foreach whose body splits into 250 arms
(one a nested foreach, one a bounded gang), for a split of 250 arms, and for chains at the limits (199 steps: 200 templates, the most one
WorkflowTemplate holds; 200 steps: 201 templates, the first flow past it; 201 steps: the first
DAG past 200 tasks), each compiled for Argo 4.1 and 3.7:
  - every WorkflowTemplate holds at most 200 templates and under 1 MiB of YAML, every DAG at
    most 200 tasks; the further WorkflowTemplates are named `<flow>-part-<n>`, come before the
    main one in the stream, and the CronWorkflow still runs the main one;
  - `--list-objects` names the further WorkflowTemplates, and `--check` compares them;
  - one run on the model of Argo (tests/py/argo_model.py, which follows templateRef and nested
    DAGs as the controller does), with hostile values for params and elements, makes each
    step's pods and gangs once per element, equal to the IR's pod (test_argo.check_runs);
  - and each pod waits for exactly what its step waits for in the flow: everything its step's
    predecessors' pods wait for, and their pods, and nothing else (in the flow's own terms: the
    pods of its step's ancestors, per element).
  - every Workflow object of the run (the parent and each part's, issue 39) stays under 1 MiB,
    is owned by its creator and runs with the run's service account; the output is the same
    twice, and `-o DIR/` writes all of it; for some flows the params are HOSTILE;
  - `argo stop` mid-run leaves no Workflow running (the exit handler stop-parts), also when a
    part creates parts of its own; `argo terminate` leaves the running parts running, as
    docs/argo.md says; and the mutants "lost", "ignored", "greedy", "no stop" fail.
The chains at the limits are golden files (tests/golden/argo/split/). The schema checks of the
same outputs are tests/py/test_argo_split_schema.py.
"""
import json
import os
import subprocess
import sys
import tempfile

import yaml_reader

import argo_model
import flowc_testlib as t
import test_argo

GOLDEN_DIR = os.path.join("tests", "golden", "argo", "split")
MAX_TEMPLATES = 200
MAX_TASKS = 200
MAX_BYTES = 1024 * 1024
VERSIONS = (("4.1", 4), ("3.7", 3))


def chain_flow(name, steps):
    """A chain of `steps` steps, `start` to `end`."""
    names = ["start"] + [f"s{i}" for i in range(1, steps - 1)] + ["end"]
    lines = ['@kubernetes(namespace="ml", image="busybox")', f"flow {name} {{"]
    for i, step in enumerate(names):
        nxt = f" next {names[i + 1]}" if i + 1 < len(names) else ""
        lines.append(f'  step {step} {{ run "echo {step}"{nxt} }}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def wide_flow(arms):
    """A split into `arms` arms of two steps each, closed by one join."""
    lines = ['@kubernetes(namespace="ml", image="busybox")', "@retry(times=1)",
             "flow wide_split {", '  param tag: str = "t"',
             '  step start { run "echo {{tag}}" next %s }'
             % ", ".join(f"a{i}" for i in range(arms))]
    for i in range(arms):
        lines.append(f'  step a{i} {{ run "echo a{i}" next b{i} }}')
        lines.append(f'  step b{i} {{ run "echo b{i} {{{{run_id}}}}" next join }}')
    lines += ['  step join { run "echo join" next end }', '  step end { run "echo end" }', "}"]
    return "\n".join(lines) + "\n"


def long_body_flow(arms):
    """A foreach over a list param whose body is a split into `arms` arms (one a nested
    foreach, one a gang bounded by @timeout) and its join: a body DAG of more than 200 tasks."""
    lines = ['@kubernetes(namespace="ml", image="busybox")',
             "flow long_body {", '  param shards: list = ["a", "b"]',
             '  step start { run "echo start" next fan }',
             '  step fan { run "echo fan" next body foreach shards }',
             '  step body { run "echo body {{item}}" next %s }'
             % ", ".join(f"a{i}" for i in range(arms))]
    for i in range(arms):
        if i == 3:
            lines += ['  step a3 { run "echo a3 {{item}}" next q3 foreach ["small", "large"] }',
                      '  step q3 { run "echo q3 {{item}}" next qj3 }',
                      '  step qj3 { run "echo qj3" next join }']
            continue
        if i == 7:
            lines += ["  @parallel(nodes=2)", "  @timeout(minutes=30)", "  @retry(times=1)"]
        lines.append(f'  step a{i} {{ run "echo a{i} {{{{item}}}}" next join }}')
    lines += ['  step join { run "echo join {{item}}" next merge }',
              '  step merge { run "echo merge" next end }', '  step end { run "echo end" }', "}"]
    return "\n".join(lines) + "\n"


def nested_flow(before, arms, after):
    """A chain of `before` steps, a foreach over a param of two elements whose body splits into
    `arms` arms, then `after` steps: the body's own parts are created inside a part (a part's
    Workflow that creates parts of its own)."""
    lines = ['@kubernetes(namespace="ml", image="busybox")', "flow nested_parts {",
             '  param xs: list = ["a", "b"]']
    names = ["start"] + [f"p{i}" for i in range(1, before)]
    for i, step in enumerate(names):
        nxt = names[i + 1] if i + 1 < len(names) else "body foreach xs"
        lines.append(f'  step {step} {{ run "echo {step}" next {nxt} }}')
    lines.append('  step body { run "echo body {{item}}" next %s }'
                 % ", ".join(f"a{i}" for i in range(arms)))
    lines += [f'  step a{i} {{ run "echo a{i} {{{{item}}}}" next join }}' for i in range(arms)]
    tail = [f"q{i}" for i in range(after - 1)] + ["end"]
    lines.append(f'  step join {{ run "echo join {{{{item}}}}" next {tail[0]} }}')
    for i, step in enumerate(tail):
        nxt = f" next {tail[i + 1]}" if i + 1 < len(tail) else ""
        lines.append(f'  step {step} {{ run "echo {step}"{nxt} }}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def documents(text):
    """The documents of a stream, and each one's text."""
    return list(yaml_reader.load_all(text)), text.split("\n---\n")


def element_counts(ir, values):
    """{foreach step: number of elements} for the run's param values."""
    counts = {}
    for step in ir["steps"]:
        foreach = step.get("foreach")
        if foreach:
            counts[step["name"]] = len(foreach["items"]) if "items" in foreach else len(
                json.loads(values[foreach["param"]]))
    return counts


def check_waits(ir, created, gang_steps, where, failures):
    """Every pod waits for the pods its step's predecessors make, and for nothing its step
    does not wait for: the closure of what it waited for (`waits`, the model's record) is the
    closure of its predecessors' pods, both read as ancestor sets over the flow's pods."""
    by_name = {s["name"]: s for s in ir["steps"]}
    k8s = {s["k8s_name"]: s["name"] for s in ir["steps"]}
    counts = element_counts(ir, test_argo.param_values(ir))
    # The flow's pods, in the IR's order: (step, element path).
    pods = []

    def paths(step):
        out = [()]
        for f in step.get("enclosing_foreach", []):
            out = [p + (i,) for p in out for i in range(counts[f])]
        return out

    for step in ir["steps"]:
        pods.extend((step["name"], p) for p in paths(step))
    bit = {pod: 1 << i for i, pod in enumerate(pods)}
    # What each of the flow's pods waits for directly, then all its ancestors.
    ancestors = {}
    direct = {}
    for step in ir["steps"]:
        enclosing = step.get("enclosing_foreach", [])
        for path in paths(step):
            mask = 0
            for p in step["predecessors"]:
                outer = by_name[p].get("enclosing_foreach", [])
                if outer == enclosing:
                    mask |= bit[(p, path)]
                elif outer + [p] == enclosing:  # the foreach that starts this body
                    mask |= bit[(p, path[:-1])]
                else:  # the last step of a body this step joins: every element's pod
                    mask |= sum(bit[(p, path + (i,))] for i in range(counts[outer[-1]]))
            direct[(step["name"], path)] = mask
            closure = mask
            rest = mask
            while rest:
                low = rest & -rest
                closure |= ancestors[pods[low.bit_length() - 1]]
                rest ^= low
            ancestors[(step["name"], path)] = closure
    key_of = []
    for c in created:
        name = k8s.get(c["template"]) or gang_steps.get(c["template"])
        key_of.append((name, tuple(c["path"])))
    seen = set()
    for c, key in zip(created, key_of):
        if key not in bit:
            failures.append(f"{where}: {c['template']} {key} is no pod of the flow")
            continue
        if key in seen:
            failures.append(f"{where}: {key} made twice")
        seen.add(key)
        waited = 0
        implied = 0
        for i in c["waits"]:
            waited |= bit[key_of[i]]
            implied |= bit[key_of[i]] | ancestors[key_of[i]]
        if waited & ~ancestors[key]:
            extra = waited & ~ancestors[key]
            late = [pods[i] for i in range(len(pods)) if extra >> i & 1]
            failures.append(f"{where}: {key} waits for {late[:3]}, which its step does not")
        if direct[key] & ~implied:
            missing = direct[key] & ~implied
            early = [pods[i] for i in range(len(pods)) if missing >> i & 1]
            failures.append(f"{where}: {key} does not wait for {early[:3]}")
    if len(seen) != len(pods):
        failures.append(f"{where}: {len(seen)} of the flow's {len(pods)} pods made")


def check_limits(ir, docs, texts, where, failures):
    """The stream: objects, the further WorkflowTemplates, the main one, the CronWorkflow;
    each WorkflowTemplate within Argo's counts and 1 MiB; returns the further ones' names."""
    kinds = [d["kind"] for d in docs]
    workflows = [i for i, k in enumerate(kinds) if k == "WorkflowTemplate"]
    main = ir["k8s_name"]
    names = [docs[i]["metadata"]["name"] for i in workflows]
    parts = [f"{main}-part-{n}" for n in range(1, len(workflows))]
    if names != parts + [main]:
        failures.append(f"{where}: WorkflowTemplates {names[:3]}...{names[-2:]}")
    tail = ["WorkflowTemplate"] * len(workflows) + (["CronWorkflow"] if "schedule" in ir else [])
    if kinds[len(kinds) - len(tail):] != tail:
        failures.append(f"{where}: documents {kinds}")
    if "schedule" in ir and docs[-1]["spec"]["workflowSpec"] != {
            "workflowTemplateRef": {"name": main}}:
        failures.append(f"{where}: the CronWorkflow runs {docs[-1]['spec']['workflowSpec']}")
    for i in workflows:
        d = docs[i]
        name = d["metadata"]["name"]
        templates = d["spec"]["templates"]
        size = len(texts[i].encode())
        if len(templates) > MAX_TEMPLATES or size >= MAX_BYTES or len(name) > 63:
            failures.append(f"{where}: {name}: {len(templates)} templates, {size} bytes")
        if name != main and not {"entrypoint", "arguments", "templates"} <= set(d["spec"]):
            failures.append(f"{where}: {name} has {sorted(d['spec'])}")
        if d["metadata"].get("namespace") != docs[workflows[-1]]["metadata"].get("namespace"):
            failures.append(f"{where}: {name} in another namespace")
        for tpl in templates:
            if "dag" in tpl and len(tpl["dag"]["tasks"]) > MAX_TASKS:
                failures.append(f"{where}: DAG {tpl['name']}: {len(tpl['dag']['tasks'])} tasks")
            for task in tpl.get("dag", {}).get("tasks", []):
                if "templateRef" in task:  # a part runs as a Workflow of its own
                    failures.append(f"{where}: {tpl['name']} uses a templateRef")
    return parts


def gang_steps(ir, docs):
    """{template that creates a bounded gang: its step's name}."""
    steps = {s["k8s_name"]: s for s in ir["steps"]}
    out = {}
    for d in docs:
        for tpl in d.get("spec", {}).get("templates", []) if d["kind"] == "WorkflowTemplate" else []:
            if tpl["name"] in steps and "dag" in tpl and test_argo.bounds_gang(steps[tpl["name"]]):
                out[tpl["dag"]["tasks"][0]["template"]] = steps[tpl["name"]]["name"]
    return out


# Params as hostile as the run's values get: braces as Argo's tags (`{{ds}}`, `{{name}}`, an
# unclosed `{{`, a lone `}}`: none Argo resolves, which docs/argo.md says it would read), the
# escape flowc writes for `{` (`\u007b`) spelled literally, kubelet's `$(VAR)`, quotes,
# backslashes, a newline, a tab, YAML's indicators and text beyond ASCII.
HOSTILE = '{{ds}} {{name}} {{ open \\u007b{ }} $(HOME) $$ "q" \'s\' \\ \\\\ \n- x: #y\t\u00fc\u65e5\U0001f600'


def hostile_values(ir):
    """Every param HOSTILE (with its name), a list param a list of HOSTILE texts."""
    return {p["name"]: json.dumps([HOSTILE, HOSTILE + p["name"]], ensure_ascii=False)
            if p["type"] == "list" else HOSTILE + p["name"] for p in ir["params"]}


def check_flow(path, where, failures, expect_split=True, hostile=False):
    """Compiles `path` for both versions and checks the outputs; returns their paths.
    `hostile`: the runs' params are HOSTILE."""
    ir = t.ir_of(path)
    runs = []
    outputs = []
    for version, major in VERSIONS:
        result = t.run_flowc("compile", path, "--target", "argo", "--argo-version", version,
                             "-o", "-")
        if result.returncode != 0 or result.stderr:
            failures.append(f"{where} ({version}): exit {result.returncode}\n{result.stderr}")
            return []
        docs, texts = documents(result.stdout)
        parts = check_limits(ir, docs, texts, f"{where} ({version})", failures)
        if expect_split and not parts:
            failures.append(f"{where} ({version}): not split")
        if major == 4:
            # Deterministic, and `-o DIR/` writes every document, the parts included.
            again = t.run_flowc("compile", path, "--target", "argo", "-o", "-")
            if again.stdout != result.stdout:
                failures.append(f"{where}: two compiles differ")
            outdir = tempfile.mkdtemp(dir=TMP)
            t.run_flowc("compile", path, "--target", "argo", "-o", outdir + os.sep)
            written = [os.path.join(outdir, f) for f in os.listdir(outdir)]
            if len(written) != 1 or open(written[0], encoding="utf-8").read() != result.stdout:
                failures.append(f"{where}: -o DIR/ wrote {os.listdir(outdir)}, not the stream")
            listed = t.run_flowc("compile", path, "--target", "argo", "--list-objects")
            want = [f"workflowtemplate.argoproj.io/{p}" for p in parts]
            got = [line for line in listed.stdout.splitlines() if line.startswith("workflowt")]
            if got != want:
                failures.append(f"{where}: --list-objects {got[:3]}, not {want[:3]}")
        out = os.path.join(TMP, f"{os.path.basename(path)}.{version}.yaml")
        with open(out, "w", encoding="utf-8") as f:
            f.write(result.stdout)
        outputs.append(out)
        runs.append((major, docs))
    models = {}
    created = test_argo.check_runs(ir, runs, where, failures, [],
                                   values=hostile_values(ir) if hostile else None,
                                   models=models, service_account=SERVICE_ACCOUNT)
    for major, model in sorted(models.items()):
        check_objects(model, f"{where} (Argo {major})", failures)
    gangs = gang_steps(ir, runs[0][1])
    for major, made in sorted(created.items()):
        check_waits(ir, made, gangs, f"{where} (Argo {major})", failures)
    return outputs


def check_objects(run, where, failures):
    """The run's Workflow objects (the model's record, argo_model.Workflow.workflows): each
    part's Workflow is owned by the Workflow that created it and runs with the service account
    the run was submitted with, none is deleted, the run succeeds, and no object holds more than
    1 MiB (its spec, storedWorkflowTemplateSpec, storedTemplates and nodes). Returns the
    largest object's bytes."""
    names = {w["name"] for w in run.workflows}
    for w in run.workflows:
        if w["bytes"] > MAX_BYTES:
            failures.append(f"{where}: Workflow {w['name']} holds {w['bytes']} bytes")
        if w["name"] != test_argo.WORKFLOW_NAME and w["owner"] not in names:
            failures.append(f"{where}: Workflow {w['name']} is owned by {w['owner']!r}")
        # A part runs as the run does: with the service account it was submitted with.
        if w["serviceAccountName"] != SERVICE_ACCOUNT:
            failures.append(f"{where}: Workflow {w['name']} runs as {w['serviceAccountName']!r}")
        if w["deleted"]:
            failures.append(f"{where}: Workflow {w['name']} was deleted")
    if run.phase != "Succeeded":
        failures.append(f"{where}: the run ends {run.phase}")
    LARGEST[where] = max(w["bytes"] for w in run.workflows), len(run.workflows)
    return LARGEST[where][0]


LARGEST = {}
SERVICE_ACCOUNT = "flow-runner"


def check_stop(path, where, expect, nested=False):
    """`argo stop` of the run, at a quarter, half and three quarters of its pods: no Workflow of
    the run is left running (the parts still running are deleted, and what they own with
    them), and only those are deleted. `argo terminate` at the same points: the parts running
    then run on (Terminate runs no exit handler), as docs/argo.md says. The checks fail when
    the main WorkflowTemplate has no exit handler (mutant "no stop"). `nested`: a part creates
    parts of its own, and a stop deletes those through their owner, the part it deletes."""
    ir = t.ir_of(path)
    docs, _ = documents(t.run_flowc("compile", path, "--target", "argo", "-o", "-").stdout)
    values = test_argo.param_values(ir)
    full = argo_model.run_all(docs, 4, values, name=test_argo.WORKFLOW_NAME)
    pods = sum(1 for c in full.created if c["kind"] == "Pod")

    def stopped(d, strategy):
        """[(running when stopped, left running, wrongly deleted)] per point."""
        out = []
        for at in (pods // 4, pods // 2, 3 * pods // 4):
            run = argo_model.run_all(d, 4, values, name=test_argo.WORKFLOW_NAME,
                                     stop=(strategy, at))
            by_name = {w["name"]: w for w in run.workflows}
            running = [w["name"] for w in run.workflows if w["phase"] == "Running"]
            left = [n for n in running if not by_name[n]["deleted"]]
            wrong = [w["name"] for w in run.workflows if w["deleted"] and w["phase"] != "Running"
                     and not by_name.get(w["owner"], {}).get("deleted")]
            out.append((running, left, wrong))
            cascaded.update(w["name"] for w in run.workflows if w["deleted"] and
                            w["owner"] != test_argo.WORKFLOW_NAME)
        return out

    cascaded = set()

    stop = stopped(docs, "Stop")
    expect(f"{where}: a stop finds parts running", all(r for r, _, _ in stop), stop)
    expect(f"{where}: nothing runs after a stop", not any(l or w for _, l, w in stop), stop)
    if nested:
        expect(f"{where}: a stop deletes a part's own parts", cascaded, "none deleted")
    terminate = stopped(docs, "Terminate")
    expect(f"{where}: after a terminate the running parts run on",
           all(r and l == r and not w for r, l, w in terminate), terminate)
    mutant = json.loads(json.dumps(docs))
    del mutant[-1]["spec"]["onExit"]
    expect(f"{where}: a mutant (no stop) fails",
           any(l for _, l, _ in stopped(mutant, "Stop")), "no failure found")


def check_check(path, output, where, failures):
    """`--check` compares every document: a changed further WorkflowTemplate is a difference."""
    same = t.run_flowc("compile", path, "--target", "argo", "--check", "-o", output)
    with open(output, encoding="utf-8") as f:
        text = f.read()
    texts = text.split("\n---\n")
    part = next(i for i, d in enumerate(texts) if "-part-1\n" in d)
    texts[part] = texts[part].replace("echo start", "echo START")
    changed = output + ".changed.yaml"
    with open(changed, "w", encoding="utf-8") as f:
        f.write("\n---\n".join(texts))
    differs = t.run_flowc("compile", path, "--target", "argo", "--check", "-o", changed)
    if same.returncode != 0 or differs.returncode != 1 or "+" not in differs.stdout or \
            "echo START" not in differs.stdout:
        failures.append(f"{where}: --check exits {same.returncode} on the same text, "
                        f"{differs.returncode} on a changed part:\n{differs.stdout[:400]}")


def check_mutants(path, where, expect, kinds):
    """The checks fail the output when a DAG's task loses its `depends` (its steps would start
    at once: "early"), when a nested DAG's task waits for what its steps do not (they would
    start late: "late", for a flow with arms), and when a templateRef names a WorkflowTemplate
    that is not there ("missing part")."""
    ir = t.ir_of(path)
    text = t.run_flowc("compile", path, "--target", "argo", "-o", "-").stdout
    docs, _ = documents(text)
    main = docs[-1]["spec"]["templates"][0]["dag"]["tasks"]
    values = test_argo.param_values(ir)

    def failures_of(mutate):
        mutant = json.loads(json.dumps(docs))
        mutate(mutant)
        failures = []
        try:
            made = argo_model.run(mutant, 4, values, name=test_argo.WORKFLOW_NAME)
            check_waits(ir, made, {}, where, failures)
        except argo_model.ArgoError as e:
            failures.append(str(e))
        return failures

    def early(mutant):
        del mutant[-1]["spec"]["templates"][0]["dag"]["tasks"][-1]["depends"]

    def late(mutant):
        # The first arm's first step waits for the second arm's last.
        part = next(d for d in mutant if d["kind"] == "WorkflowTemplate")
        tasks = part["spec"]["templates"][0]["dag"]["tasks"]
        tasks[0]["depends"] = tasks[3]["name"]

    def missing(mutant):
        mutant[:] = mutant[1:]

    def lost(mutant):
        # A dependency across a part's boundary is lost: the first task of the parent's DAG
        # that waits for a part, or a part that waits for a task, no longer waits.
        tasks = mutant[-1]["spec"]["templates"][0]["dag"]["tasks"]
        parts = {x["name"] for x in tasks if x["template"] == "create-part"}
        for x in tasks:
            if "depends" in x and (x["name"] in parts or
                                   parts & {d.strip() for d in x["depends"].split("&&")}):
                del x["depends"]
                return

    def ignored(mutant):
        # The parent takes a failed part's Workflow for a success.
        for x in mutant[-1]["spec"]["templates"]:
            if x.get("resource", {}).get("action") == "create":
                x["resource"]["successCondition"] = "status.phase in (Succeeded,Failed,Error)"
                del x["resource"]["failureCondition"]

    def failed_run(mutant):
        # A step of a part fails: the run must fail.
        step = next(x["name"] for x in mutant[0]["spec"]["templates"] if "container" in x)
        try:
            run = argo_model.run_all(mutant, 4, values, name=test_argo.WORKFLOW_NAME,
                                     outcomes={step: ["Failed"] * 10})
        except argo_model.ArgoError as e:
            return [str(e)]
        # The failed part's Workflow stays, for its logs: the exit handler deletes none.
        deleted = [w["name"] for w in run.workflows if w["deleted"]]
        return [] if run.phase == "Failed" and not deleted else [
            f"a failed {step} ends the run {run.phase}, deletes {deleted}"]

    def greedy(mutant):
        # The exit handler deletes the parts' Workflows that have completed too.
        for x in mutant[-1]["spec"]["templates"]:
            if x.get("resource", {}).get("action") == "delete":
                x["resource"]["flags"] = [f.split(",")[0] for f in x["resource"]["flags"]]

    mutant = json.loads(json.dumps(docs))
    greedy(mutant)
    expect(f"{where}: a mutant (greedy stop) fails", failed_run(mutant), "no failure found")
    unchanged = json.loads(json.dumps(docs))
    expect(f"{where}: a failed step in a part fails the run", not failed_run(unchanged),
           failed_run(unchanged))
    mutant = json.loads(json.dumps(docs))
    ignored(mutant)
    expect(f"{where}: a mutant (ignored failure) fails", failed_run(mutant), "no failure found")

    expect(f"{where}: the model reads the output", main[-1].get("depends") and
           not failures_of(lambda m: None), failures_of(lambda m: None))
    for name, mutate in (("early", early), ("late", late), ("missing part", missing),
                         ("lost", lost)):
        if name not in kinds:
            continue
        found = failures_of(mutate)
        expect(f"{where}: a mutant ({name}) fails", found, "no failure found")


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


TMP = tempfile.mkdtemp(prefix="flowc-argo-split-")


def main():
    expect = t.Expectations()
    failures = expect.failures
    outputs = []
    # Chains at the limits: goldens, and the shapes that show where splitting starts.
    for steps, name in ((199, "limit_200_templates"), (200, "limit_201_templates"),
                        (201, "limit_201_tasks")):
        path = write(name + ".flow", chain_flow(name, steps))
        result = t.run_flowc("compile", path, "--target", "argo", "-o", "-")
        t.check_golden(os.path.join(GOLDEN_DIR, name + ".yaml"), result.stdout, failures)
        docs, _ = documents(result.stdout)
        shape = [(d["metadata"]["name"], len(d["spec"]["templates"]),
                  max(len(x["dag"]["tasks"]) for x in d["spec"]["templates"] if "dag" in x)
                  if any("dag" in x for x in d["spec"]["templates"]) else 0) for d in docs]
        want = {199: [("limit-200-templates", 200, 199)],
                # The first 196 steps are a part; the main one runs it and the rest (and has
                # create-part and stop-parts).
                200: [("limit-201-templates-part-1", 197, 196), ("limit-201-templates", 7, 5)],
                201: [("limit-201-tasks-part-1", 197, 196), ("limit-201-tasks", 8, 6)]}[steps]
        expect(f"{name} shape", shape == want, f"{shape}")
        outputs += check_flow(path, name, failures, expect_split=steps > 199)
        if steps == 200:
            check_check(path, outputs[-2], name, failures)
        if steps == 201:
            check_mutants(path, name, expect, ("early", "missing part", "lost"))
            check_stop(path, name, expect)
        expect(name, True)
    # Shapes the generator does not make: a long foreach body, a wide split.
    for name, text in (("long_body", long_body_flow(250)), ("wide_split", wide_flow(250))):
        outputs += check_flow(write(name + ".flow", text), name, failures, hostile=True)
        if name == "wide_split":
            check_mutants(os.path.join(TMP, name + ".flow"), name, expect, ("late",))
        expect(name, True)
    # A part that creates parts of its own (a split foreach body inside a part).
    path = write("nested_parts.flow", nested_flow(150, 200, 60))
    outputs += check_flow(path, "nested_parts", failures, hostile=True)
    check_stop(path, "nested_parts", expect, nested=True)
    expect("nested_parts", True)
    # bench/'s generator: branches, nested foreach, bounded gangs, retries, a schedule.
    for steps in (201, 250, 1000, 10000):
        flow = subprocess.run([t.PYTHON, os.path.join(t.SOURCE_DIR, "bench", "gen_flow.py"),
                               str(steps), "--exact"], capture_output=True, text=True, check=True).stdout
        outputs += check_flow(write(f"bench_{steps}.flow", flow), f"bench_{steps}", failures,
                              hostile=steps in (250, 1000))
        expect(f"bench_{steps}", True)
    with open(os.path.join(TMP, "outputs.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(outputs) + "\n")
    t.finish("test_argo_split", failures, expect.checked)


if __name__ == "__main__":
    sys.exit(main())
