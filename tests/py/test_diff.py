"""flowc diff, end to end (docs/diff.md).

- Each case changes tests/diff/project/base.flow (or a file beside it) in one way; the report
  in every format is a golden file (tests/diff/golden/CASE.{txt,md,json}), and the JSON report
  holds exactly the case's expected (section, step, field, change) tuples.
- diff(A, A), diff(A, fmt(A)) and diff(A, A re-commented) have no change and exit 0.
- Hostile strings (newlines, Markdown and HTML metacharacters, ANSI escapes) forge no line,
  heading, table row or escape in any format.
- --git against a throwaway repository: a changed, an added and a removed flow, a revision and
  a path; exit statuses 0, 1, 2 and 3; a flow with errors printed as `flowc check` prints it.
- The flows the mutation test (tests/unit/diff_mutation_test.cc) changes hold every key
  compiler/ir writes, so a field added to the IR is mutated there, or this test fails.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

import flowc_testlib as lib

expect = lib.Expectations()
failures = expect.failures
PROJECT = os.path.join(lib.SOURCE_DIR, "tests", "diff", "project")
GOLDEN = "tests/diff/golden"

# (name, [(old text, new text) in base.flow], {file: new content}, expected JSON changes as
# (section, step, field, change)).
CASES = [
    ("scheduling_trainium", [("trainium=16", "trainium=8")], {},
     {("scheduling", "train", 'container.resources.limits["aws.amazon.com/neuron"]', "changed")}),
    ("scheduling_toleration", [('"value": "train"', '"value": "batch"')], {},
     {("scheduling", "train", "pod.tolerations[]", "removed"),
      ("scheduling", "train", "pod.tolerations[]", "added")}),
    ("scheduling_node_selector", [("trn1.32xlarge", "trn2.48xlarge")], {},
     {("scheduling", "train", 'pod.nodeSelector["node.kubernetes.io/instance-type"]', "changed")}),
    ("scheduling_queue", [("@parallel(nodes=4)", '@parallel(nodes=4)\n  @queue(name="ml-trn")')], {},
     {("scheduling", "train", "queue.name", "changed"),
      ("scheduling", "train", 'queue.labels["kueue.x-k8s.io/queue-name"]', "changed")}),
    ("scheduling_service_account", [('service_account="flows"', 'service_account="flows-v2"')], {},
     {("scheduling", "*", "pod.serviceAccountName", "changed")}),
    ("scheduling_claim", [('@neuron(devices=1, instance_type="inf2.xlarge")',
                          '@neuron(devices=2, instance_type="inf2.24xlarge")')], {},
     {("scheduling", "score", "resourceClaimTemplate", "changed"),
      ("scheduling", "score", "resourceClaimTemplate.spec.spec.devices.requests[neurons].exactly.count",
       "changed"),
      ("scheduling", "score",
       "resourceClaimTemplate.spec.spec.devices.requests[neurons].exactly.selectors[]", "removed"),
      ("scheduling", "score",
       "resourceClaimTemplate.spec.spec.devices.requests[neurons].exactly.selectors[]", "added")}),
    ("graph_step_added", [('run "python collect.py"\n    next merge',
                           'run "python collect.py"\n    next summarize\n  }\n\n  step summarize {\n'
                           '    run "python summarize.py"\n    next merge')], {},
     {("graph", "summarize", "", "added"), ("graph", "collect", "next", "changed")}),
    ("graph_step_removed", [('next report\n', 'next end\n'),
                            ('  step report {\n    run "python report.py"\n    next end\n  }\n\n',
                             '')], {},
     {("graph", "report", "", "removed"), ("graph", "merge", "next", "changed")}),
    ("graph_step_renamed", [("step collect {", "step gather {"), ("next collect", "next gather")],
     {}, {("graph", "gather", "", "renamed")}),
    # The gang's size, and the FLOWC_NUM_NODES its pods read.
    ("graph_gang", [("@parallel(nodes=4)", "@parallel(nodes=8)")], {},
     {("graph", "train", "parallel.nodes", "changed"),
      ("pod", "train", "container.env[FLOWC_NUM_NODES].value", "changed")}),
    ("pod_image", [("pytorch-training-neuronx:2.9.0", "pytorch-training-neuronx:2.10.0")], {},
     {("pod", "train", "container.image", "changed")}),
    ("pod_command", [('run "python merge.py"', 'run "python merge.py --all"')], {},
     {("pod", "merge", "container.command", "changed")}),
    ("pod_env", [('"FI_PROVIDER": "efa"', '"FI_PROVIDER": "tcp"')], {},
     {("pod", "train", "container.env[FI_PROVIDER].value", "changed")}),
    ("pod_code", [], {"lib/util.py": "def helper():\n    return 2\n"},
     {("pod", "train", "code", "changed")}),
    ("pod_retry", [("@retry(times=2,", "@retry(times=3,")], {},
     {("pod", "train", "retry.times", "changed")}),
    ("pod_timeout", [("@timeout(hours=6)", "@timeout(hours=8)")], {},
     {("pod", "train", "timeout_seconds", "changed")}),
    ("flow_param", [("param epochs: int = 3", "param epochs: int = 5")], {},
     {("flow", None, "params[epochs].default", "changed")}),
    ("flow_schedule", [('cron="0 3 * * *", timezone="Europe/Paris"',
                        'cron="0 4 * * *", timezone="America/New_York"')], {},
     {("flow", None, "schedule.cron", "changed"), ("flow", None, "schedule.timezone", "changed")}),
    ("flow_labels", [('labels={"team": "ml"}', 'labels={"team": "research"}')], {},
     {("flow", "*", "pod.labels.team", "changed")}),
]

# A string a flow may carry into the report: a line break, a Markdown heading and table row,
# HTML, a backtick and an ANSI escape (\u{1b} is ESC).
HOSTILE = r'x\n### forged\n| a | b |\n<script>`\u{1b}[31m\u{9b}31m'


def write_project(root, edits, files):
    shutil.copytree(PROJECT, root)
    path = os.path.join(root, "base.flow")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for old, new in edits:
        expect(f"{root}: the edit {old!r} applies", old in text, text)
        text = text.replace(old, new)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    for name, content in files.items():
        with open(os.path.join(root, name), "w", encoding="utf-8") as f:
            f.write(content)


def diff(cwd, *args):
    return subprocess.run([lib.FLOWC, "diff", *args], capture_output=True, text=True, cwd=cwd)


def check_cases():
    for name, edits, files, want in CASES:
        tmp = tempfile.mkdtemp(prefix="flowc-diff-")
        try:
            write_project(os.path.join(tmp, "old"), [], {})
            write_project(os.path.join(tmp, "new"), edits, files)
            for fmt, ext in (("text", "txt"), ("markdown", "md"), ("json", "json")):
                r = diff(tmp, "old/base.flow", "new/base.flow", "--format", fmt)
                expect(f"{name}: flowc diff --format {fmt} exits 1", r.returncode == 1,
                       f"{r.returncode}: {r.stderr}")
                expect(f"{name}: no diagnostics", r.stderr == "", r.stderr)
                lib.check_golden(f"{GOLDEN}/{name}.{ext}", r.stdout, failures)
                if fmt == "json":
                    report = json.loads(r.stdout)
                    got = {(c["section"], c["step"], c["field"], c["change"])
                           for c in report["files"][0]["changes"]}
                    expect(f"{name}: reports a change", len(got) > 0, r.stdout)
                    expect(f"{name}: reports exactly its change", got == want,
                               f"\n  got  {sorted(got, key=str)}\n  want {sorted(want, key=str)}")
        finally:
            shutil.rmtree(tmp)


def check_no_change():
    base = os.path.join(PROJECT, "base.flow")
    with open(base, encoding="utf-8") as f:
        text = f.read()
    tmp = tempfile.mkdtemp(prefix="flowc-diff-")
    try:
        # A re-commented flow laid out badly, and what flowc fmt makes of it; each in a folder
        # of its own under the same name, as the Airflow DAG names its source file.
        ugly = text.replace("  step start {", "  # a new comment\n  step    start {   # here\n")
        ugly = ugly.replace("    next merge\n", "    next   merge   # again\n\n\n")
        r = lib.run_flowc("fmt", "-", input=ugly)
        expect("flowc fmt formats the re-commented flow", r.returncode == 0, r.stderr)
        for name, content in (("orig", text), ("ugly", ugly), ("formatted", r.stdout)):
            write_project(os.path.join(tmp, name), [(text, content)], {})
        expect("the re-commented flow is not formatted", ugly != r.stdout, ugly)
        for a, b in (("orig", "orig"), ("orig", "ugly"), ("ugly", "formatted")):
            for fmt in ("text", "markdown", "json"):
                r = diff(tmp, f"{a}/base.flow", f"{b}/base.flow", "--format", fmt, "--target",
                         "argo", "--target", "airflow")
                expect(f"diff({a}, {b}) --format {fmt}: no change, exit 0", r.returncode == 0,
                       f"{r.returncode}\n{r.stdout}{r.stderr}")
                if fmt == "json":
                    report = json.loads(r.stdout)
                    expect(f"diff({a}, {b}): the JSON report is empty",
                           report["differs"] is False and report["files"][0]["changes"] == [],
                           r.stdout)
                else:
                    want = "no changes\n" if fmt == "text" else "### flowc diff\n\nNo changes.\n"
                    expect(f"diff({a}, {b}) --format {fmt} says so", r.stdout == want, r.stdout)
    finally:
        shutil.rmtree(tmp)


def check_hostile():
    tmp = tempfile.mkdtemp(prefix="flowc-diff-")
    try:
        write_project(os.path.join(tmp, "old"), [], {})
        write_project(os.path.join(tmp, "new"), [
            ('"FI_PROVIDER": "efa"', f'"FI_PROVIDER": "{HOSTILE}"'),
            ('run "python merge.py"', f'run "python merge.py {HOSTILE}"')], {})
        for fmt, ext in (("text", "txt"), ("markdown", "md"), ("json", "json")):
            r = diff(tmp, "old/base.flow", "new/base.flow", "--format", fmt)
            expect(f"hostile --format {fmt}: exit 1", r.returncode == 1, r.stderr)
            lib.check_golden(f"{GOLDEN}/hostile.{ext}", r.stdout, failures)
            out = r.stdout
            expect(f"hostile --format {fmt}: no escape character or C1 control",
                   not re.search(r"[\x1b\x7f-\x9f]", out), repr(out))
            expect(f"hostile --format {fmt}: no forged line", "forged" not in
                   "".join(l for l in out.split("\n") if l.lstrip().startswith(("#", "|", "###"))
                           and "forged" in l and fmt != "markdown"), out)
            for line in out.split("\n"):
                expect(f"hostile --format {fmt}: no line starts with the flow's text",
                       not line.startswith(("### forged", "| a | b |", "<script>")), line)
            if fmt == "markdown":
                expect("hostile markdown: no raw HTML, backtick or pipe from the flow",
                       "<script>" not in out and "`" not in out and "| a | b |" not in out, out)
                rows = [l for l in out.split("\n") if l.startswith("|")]
                expect("hostile markdown: every table row has its five or seven cells",
                       all(l.count("|") in (6, 8) for l in rows), "\n".join(rows))
            if fmt == "json":
                values = [c.get("new") for c in json.loads(out)["files"][0]["changes"]]
                expect("hostile json: the value reads back byte for byte",
                       any(isinstance(v, list) and any("\x1b[31m" in str(x) for x in v)
                           or isinstance(v, str) and "\x1b[31m" in v for v in values), out)
    finally:
        shutil.rmtree(tmp)


def check_statuses():
    tmp = tempfile.mkdtemp(prefix="flowc-diff-")
    try:
        write_project(os.path.join(tmp, "p"), [], {})
        with open(os.path.join(tmp, "p", "broken.flow"), "w", encoding="utf-8") as f:
            f.write("flow broken {\n  step start {\n    next nowhere\n  }\n}\n")
        r = diff(tmp, "p/base.flow")
        expect("one flow: usage error, exit 2", r.returncode == 2, r.stderr)
        r = diff(tmp, "p/base.flow", "p/missing.flow")
        expect("a missing flow: I/O error, exit 3",
               r.returncode == 3 and r.stderr ==
               "flowc: error: cannot read 'p/missing.flow': No such file or directory\n",
               f"{r.returncode} {r.stderr}")
        r = diff(tmp, "p/base.flow", "p/broken.flow")
        check = subprocess.run([lib.FLOWC, "check", "p/broken.flow"], capture_output=True,
                               text=True, cwd=tmp)
        expect("a flow with errors: exit 1, its diagnostics as flowc check prints them",
               r.returncode == 1 and r.stderr == check.stderr and check.stderr != "",
               f"{r.returncode}\n{r.stderr}\n---\n{check.stderr}")
        lib.check_golden(f"{GOLDEN}/errors.txt", r.stdout, failures)
        r = diff(tmp, "p/base.flow", "p/base.flow", "--format", "yaml")
        expect("an unknown format: usage error, exit 2", r.returncode == 2, r.stderr)
    finally:
        shutil.rmtree(tmp)


def check_target():
    tmp = tempfile.mkdtemp(prefix="flowc-diff-")
    try:
        flow = ("flow gang {\n  @parallel(nodes=2)\n  @retry(times=2, minutes_between_retries=%d)\n"
                "  step start {\n    run \"echo hi\"\n    next end\n  }\n\n  step end {\n"
                "    run \"echo done\"\n  }\n}\n")
        for name, minutes in (("old.flow", 5), ("new.flow", 0)):
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                f.write(flow % minutes)
        r = diff(tmp, "old.flow", "new.flow", "--target", "jobset", "--format", "json")
        expect("--target jobset: exit 1", r.returncode == 1, r.stderr)
        lib.check_golden(f"{GOLDEN}/target_jobset.json", r.stdout, failures)
        got = {(c["section"], c["field"], c["change"])
               for c in json.loads(r.stdout)["files"][0]["changes"]}
        expect("--target jobset: the warning the target drops is reported",
               ("target", "jobset.warnings[]", "removed") in got, r.stdout)
        r2 = diff(tmp, "-t", "jobset", "old.flow", "new.flow", "-t", "jobset", "--format", "json")
        expect("-t takes one target each time, the flows after it are flows",
               r2.returncode == 1 and r2.stdout == r.stdout, r2.stdout + r2.stderr)
    finally:
        shutil.rmtree(tmp)


def git(cwd, *args):
    r = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                       capture_output=True, text=True, cwd=cwd)
    if r.returncode != 0:
        raise AssertionError(f"git {args}: {r.stderr}")
    return r.stdout


def check_git():
    if shutil.which("git") is None:
        expect("git is installed for flowc diff --git", False, "no git on PATH")
        return
    tmp = tempfile.mkdtemp(prefix="flowc-diff-git-")
    try:
        repo = os.path.join(tmp, "repo")
        os.makedirs(repo)
        git(repo, "init", "-q")
        write_project(os.path.join(repo, "flows"), [], {})
        with open(os.path.join(repo, "flows", "gone.flow"), "w", encoding="utf-8") as f:
            f.write('flow gone {\n  step start {\n    run "echo bye"\n    next end\n  }\n\n'
                    '  step end {\n    run "echo done"\n  }\n}\n')
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "one")
        r = diff(repo, "--git")
        expect("--git, nothing changed: exit 0", r.returncode == 0 and r.stdout == "no changes\n",
               f"{r.returncode}\n{r.stdout}{r.stderr}")
        # A changed @code file, a removed flow and a new one.
        with open(os.path.join(repo, "flows", "lib", "util.py"), "w", encoding="utf-8") as f:
            f.write("def helper():\n    return 3\n")
        os.remove(os.path.join(repo, "flows", "gone.flow"))
        with open(os.path.join(repo, "flows", "new.flow"), "w", encoding="utf-8") as f:
            f.write('flow fresh {\n  step start {\n    run "echo hi"\n    next end\n  }\n\n'
                    '  step end {\n    run "echo done"\n  }\n}\n')
        r = diff(repo, "--git")
        expect("--git: exit 1", r.returncode == 1, r.stderr)
        lib.check_golden(f"{GOLDEN}/git.txt", r.stdout, failures)
        r = diff(os.path.join(repo, "flows"), "--git", "HEAD", "base.flow", "--format", "json")
        report = json.loads(r.stdout) if r.returncode == 1 else {"files": []}
        expect("--git HEAD PATH from a folder: only that flow, its code changed",
               [(f["old"], f["new"], [c["field"] for c in f["changes"]]) for f in report["files"]]
               == [("HEAD:flows/base.flow", "flows/base.flow", ["code"])], r.stdout + r.stderr)
        r = diff(repo, "--git", "no-such-rev-or-file")
        expect("--git with an unknown revision and no such file: nothing compared, exit 0",
               r.returncode == 0, r.stdout + r.stderr)
        r = diff(tmp, "--git")
        expect("--git outside a repository: usage error, exit 2", r.returncode == 2, r.stderr)
    finally:
        shutil.rmtree(tmp)


def ir_keys(value, out):
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            ir_keys(v, out)
    elif isinstance(value, list):
        for v in value:
            ir_keys(v, out)


def check_mutation_coverage():
    """Every key compiler/ir's JSON writers name is in the IR of the mutation test's flows."""
    source = open(os.path.join(lib.SOURCE_DIR, "tests", "unit", "diff_mutation_test.cc"),
                  encoding="utf-8").read()
    listed = source[source.index("kFlows[] = {"):source.index("};", source.index("kFlows[] = {"))]
    flows = re.findall(r'"([^"]+\.flow)"', listed)
    keys = set()
    for flow in flows:
        ir_keys(lib.ir_of(flow), keys)
    written = set()
    ir_dir = os.path.join(lib.SOURCE_DIR, "compiler", "ir")
    for name in sorted(os.listdir(ir_dir)):
        if "json" not in name or not name.endswith(".cc"):
            continue
        text = open(os.path.join(ir_dir, name), encoding="utf-8").read()
        written |= set(re.findall(r'(?:Add|SetIf|MapPart|Member|Array)\(\s*\w+,\s*"(\w+)"', text))
        written |= set(re.findall(r'\[\s*"(\w+)"\s*\]\s*=', text))
        written |= set(re.findall(r'\{\{?\s*"(\w+)"\s*,', text))
        written |= set(re.findall(r'(?:Member|Array)\(\s*"(\w+)"', text))
    expect("the JSON writers of compiler/ir name keys", len(written) > 40, sorted(written))
    missing = written - keys
    expect("the mutation test's flows hold every key compiler/ir writes", not missing,
           f"add a flow using them to kFlows in tests/unit/diff_mutation_test.cc: {sorted(missing)}")


# docs/diff.md's example: the edits its text describes, made to its ```flow block.
DOC_EDITS = [("trainium=16", "trainium=32"), ("neuronx:2.9.0", "neuronx:2.10.0"),
             ("@retry(times=2)", "@retry(times=3)"), ("step collect {", "step gather {"),
             ("next collect", "next gather"), ('cron="0 3 * * *"', 'cron="0 4 * * *"')]


def check_docs_example():
    """docs/diff.md's three reports are what flowc prints for its example (rewritten with
    FLOWC_UPDATE_GOLDENS=1)."""
    path = os.path.join(lib.SOURCE_DIR, "docs", "diff.md")
    with open(path, encoding="utf-8") as f:
        page = f.read()
    flow = re.search(r"```flow\n(.*?)```\n", page, re.S).group(1)
    blocks = list(re.finditer(r"```text\n(.*?)```\n", page, re.S))
    expect("docs/diff.md shows the text, Markdown and JSON reports", len(blocks) == 3,
           len(blocks))
    if len(blocks) != 3:
        return
    tmp = tempfile.mkdtemp(prefix="flowc-diff-docs-")
    try:
        new = flow
        for old, replacement in DOC_EDITS:
            expect(f"docs/diff.md's example holds {old!r}", old in new, new)
            new = new.replace(old, replacement)
        for name, text in (("old.flow", flow), ("new.flow", new)):
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                f.write(text)
        outputs = []
        for fmt in ("text", "markdown", "json"):
            r = diff(tmp, "old.flow", "new.flow", "--format", fmt)
            expect(f"docs/diff.md's example --format {fmt}: exit 1, no diagnostics",
                   r.returncode == 1 and r.stderr == "", f"{r.returncode}: {r.stderr}")
            outputs.append(r.stdout)
    finally:
        shutil.rmtree(tmp)
    if lib.UPDATE:
        for block, out in reversed(list(zip(blocks, outputs))):
            page = page[:block.start(1)] + out + page[block.end(1):]
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
        return
    for block, out, fmt in zip(blocks, outputs, ("text", "markdown", "json")):
        expect(f"docs/diff.md's {fmt} report is what flowc prints", block.group(1) == out,
               f"\n--- docs\n{block.group(1)}--- flowc\n{out}")


def main():
    check_cases()
    check_docs_example()
    check_no_change()
    check_hostile()
    check_statuses()
    check_target()
    check_git()
    check_mutation_coverage()
    lib.finish("test_diff", failures, expect.checked)


if __name__ == "__main__":
    main()
