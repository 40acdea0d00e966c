"""End-to-end tests of `@code` (issue 12): local files shipped to the pods in a ConfigMap.

  - samples/code_project compiles to its goldens (tests/golden/<target>/code_project.*) on
    every target, passes flowc validate (Argo 3.7 and 4.1, JobSet), and every
    target's pods read back (tests/py/pod_readers.py) equal the IR's, field for field (the
    configMap volume, its read-only mount and workingDir included, checked once more on
    their own);
  - a file its owner may execute on disk (samples/code_project/prep.py) has mode 0755 (493)
    in its item on every target, every other file none;
  - byte for byte: the ConfigMaps are decoded from each target's output (the YAML stream of
    argo and jobset, the objects the Airflow DAG embeds), every file of the project the
    flow names is compared with what the pod would find at <mount>/<path>, and nothing else
    is shipped; the file list comes from Python's own glob, not from flowc. Each ConfigMap
    is checked as the API server would: keys, size, immutable, name;
  - the same for a project of hostile files: CR LF, a BOM, U+2028, NEL, no final newline,
    Jinja and Argo braces, `$(`, YAML-looking text, empty files, NUL, invalid UTF-8, UTF-16,
    names with spaces, accents and dashes, a path too long for a key;
  - --check reports a changed or renamed shipped file as drift, and not an unchanged one;
  - a failing @code leaves no output file (-o) and never truncates an existing one; an
    unreadable file is an I/O error (exit 3), a FIFO is refused without blocking, and a
    flow read from stdin ships files of the current folder.
Refresh the goldens with FLOWC_UPDATE_GOLDENS=1 (tests/update_goldens.sh).
"""
import ast
import base64
import glob
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile

import yaml
import yaml_reader

import flowc_testlib as t
import pod_readers as r
import test_parity

SAMPLE = os.path.join("samples", "code_project", "code_project.flow")
GOLDENS = {"ir": ".json", "argo": ".yaml", "jobset": ".yaml", "airflow": ".py"}
TARGETS = ("argo", "jobset", "airflow")
# ConfigMap keys (k8s.io/apimachinery pkg/util/validation: IsConfigMapKey), and the total
# of data and binaryData a ConfigMap may hold (pkg/apis/core/validation: ValidateConfigMap).
KEY = re.compile(r"[-._a-zA-Z0-9]+")
MAX_BYTES = 1024 * 1024
DNS_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
TIMEOUT = 60


def flowc(args, cwd, input=None, user=None):
    """Runs flowc in `cwd`; bytes in and out. `user`: run as that uid (for permission tests)."""
    command = [t.FLOWC, *args]
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    return subprocess.run(command, cwd=cwd, input=input, capture_output=True, timeout=TIMEOUT)


# --- reading the ConfigMaps back -----------------------------------------------------------

def yaml_configmaps(text):
    return [d for d in yaml_reader.load_all(text) if isinstance(d, dict) and d.get("kind") == "ConfigMap"]


def airflow_configmaps(text):
    """The ConfigMaps the DAG creates: FLOWC_OBJECTS = {key: YAML}, read with `ast`, so the
    DAG need not be imported."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and any(getattr(n, "id", "") == "FLOWC_OBJECTS"
                                                for n in node.targets):
            objects = ast.literal_eval(node.value)
            return [d for d in map(yaml_reader.load, objects.values()) if d.get("kind") == "ConfigMap"]
    return []


def configmaps(target, text):
    return airflow_configmaps(text) if target == "airflow" else yaml_configmaps(text)


def configmap_problems(cm, flow_k8s_name, where):
    """What the API server would refuse in `cm`, and flowc's own promises (immutable, name)."""
    problems = []
    name = cm["metadata"]["name"]
    if not re.fullmatch(re.escape(flow_k8s_name) + r"-code-[0-9a-f]{10}", name) or \
            not DNS_SUBDOMAIN.fullmatch(name) or len(name) > 253:
        problems.append(f"{where}: name {name!r}")
    if cm.get("immutable") is not True:
        problems.append(f"{where}: {name} is not immutable")
    data, binary = cm.get("data", {}), cm.get("binaryData", {})
    total = 0
    for key in list(data) + list(binary):
        if not KEY.fullmatch(key) or len(key) > 253 or key in (".", "..") or key.startswith(".."):
            problems.append(f"{where}: {name}: invalid key {key!r}")
    for key in set(data) & set(binary):
        problems.append(f"{where}: {name}: key {key!r} in data and binaryData")
    for key, value in data.items():
        if not isinstance(value, str):
            problems.append(f"{where}: {name}: data[{key!r}] is {type(value).__name__}")
        else:
            total += len(value.encode("utf-8"))
    for key, value in binary.items():
        if not isinstance(value, str):  # a YAML !!binary node: kubectl cannot read it
            problems.append(f"{where}: {name}: binaryData[{key!r}] is {type(value).__name__}")
            continue
        total += len(base64.b64decode(value, validate=True))
    if total > MAX_BYTES:
        problems.append(f"{where}: {name}: {total} bytes")
    return problems


def shipped(cm, items):
    """{path: bytes} that a configMap volume with `items` (key -> path) makes of `cm`."""
    data, binary = cm.get("data", {}), cm.get("binaryData", {})
    out = {}
    for item in items:
        key = item["key"]
        if key in data:
            out[item["path"]] = data[key].encode("utf-8")
        else:
            out[item["path"]] = base64.b64decode(binary[key], validate=True)
    if sorted(i["key"] for i in items) != sorted(list(data) + list(binary)):
        out["<keys>"] = b"items and keys differ"
    return out


def expected_files(folder, patterns):
    """{relative path: bytes} of what `files=patterns` names, by Python's glob (hidden names
    need a pattern that starts with '.', folders are skipped, links are followed)."""
    out = {}
    for pattern in patterns:
        for path in glob.glob(os.path.join(folder, pattern)):
            if os.path.isfile(path):
                rel = os.path.relpath(path, folder)
                with open(path, "rb") as f:
                    out[rel] = f.read()
    return out


def byte_problems(target, text, ir, folder, expect, where):
    """Every step's pods get exactly `expect[step]` = (mount path, {path: bytes}), byte for byte,
    from the ConfigMaps the target delivers; each ConfigMap passes configmap_problems."""
    problems = []
    maps = {cm["metadata"]["name"]: cm for cm in configmaps(target, text)}
    if not maps:
        return [f"{where}: target '{target}' delivers no ConfigMap"]
    for name, cm in maps.items():
        problems += configmap_problems(cm, ir["k8s_name"], f"{where}: target '{target}'")
    pods = read_pods(target, text, ir, where, problems)
    for step, (mount, files) in expect.items():
        for inst in pods.get(step, []):
            at = f"{where}: target '{target}': step '{step}' [{inst['label']}]"
            spec = inst["pod"]["spec"]
            volumes = [v for v in spec.get("volumes", []) if "configMap" in v]
            container = spec["containers"][0]
            mounts = [m for m in container.get("volumeMounts", [])
                      if m["name"] in {v["name"] for v in volumes}]
            if len(volumes) != 1 or len(mounts) != 1:
                problems.append(f"{at}: {len(volumes)} configMap volumes, {len(mounts)} mounts")
                continue
            if mounts[0]["mountPath"] != mount or mounts[0].get("readOnly") is not True or \
                    container.get("workingDir") != mount:
                problems.append(f"{at}: mount {mounts[0]}, workingDir {container.get('workingDir')}")
            cm = maps.get(volumes[0]["configMap"]["name"])
            if cm is None:
                problems.append(f"{at}: ConfigMap {volumes[0]['configMap']['name']} not delivered")
                continue
            got = shipped(cm, volumes[0]["configMap"]["items"])
            # A file its owner may execute on disk keeps the bit: mode 0755, else none (0644).
            for item in volumes[0]["configMap"]["items"]:
                disk = os.stat(os.path.join(folder, item["path"])).st_mode
                want = 0o755 if disk & stat.S_IXUSR else None
                if item.get("mode") != want:
                    problems.append(f"{at}: {item['path']!r} has mode {item.get('mode')}, the "
                                    f"file on disk {oct(disk & 0o777)}")
            for path in sorted(set(got) | set(files)):
                if path not in files:
                    problems.append(f"{at}: ships {path!r}, which the flow does not name")
                elif path not in got:
                    problems.append(f"{at}: {path!r} is not shipped")
                elif got[path] != files[path]:
                    a, b = got[path], files[path]
                    i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]),
                             min(len(a), len(b)))
                    problems.append(f"{at}: {path!r} differs from byte {i} on: shipped "
                                    f"{a[i:i + 40]!r} ({len(a)} bytes), the file has "
                                    f"{b[i:i + 40]!r} ({len(b)} bytes)")
    return problems


def read_pods(target, text, ir, where, problems):
    with tempfile.TemporaryDirectory(prefix="flowc-code-") as tmp:
        pods, lines = test_parity.read(target, text, ir, where, tmp)
    problems.extend(lines)
    return pods


# --- the sample ----------------------------------------------------------------------------

def sample_tests(failures):
    checked = 0
    outputs = {}
    for target, ext in GOLDENS.items():
        checked += 1
        text = t.compile_flow(SAMPLE, target)
        outputs[target] = text
        t.check_golden(os.path.join("tests", "golden", target, "code_project" + ext), text, failures)
        again = t.compile_flow(SAMPLE, target)
        if again != text:
            failures.append(f"{SAMPLE}: --target {target} is not deterministic")
    ir = json.loads(outputs["ir"])
    with tempfile.TemporaryDirectory(prefix="flowc-code-") as tmp:
        paths = []
        for target in ("argo", "jobset"):
            path = os.path.join(tmp, target + ".yaml")
            with open(path, "w", encoding="utf-8") as f:
                f.write(outputs[target])
            paths.append(path)
        argo37 = os.path.join(tmp, "argo37.yaml")
        result = t.run_flowc("compile", SAMPLE, "--target", "argo", "--argo-version", "3.7")
        with open(argo37, "w", encoding="utf-8") as f:
            f.write(result.stdout)
        for extra, files in ((["--argo-version", "3.7"], [argo37]),
                             (["--argo-version", "4.1"], paths)):
            checked += 1
            ok, out = t.validate(files, *extra)
            if not ok:
                failures.append(f"conformance {' '.join(extra)}:\n{out}")
        # Parity: every target's pods are the IR's, field for field.
        params = r.airflow_param_values(ir)
        for target in TARGETS:
            checked += 1
            lines, compared, _ = test_parity.check(SAMPLE, ir, target, outputs[target], params, tmp)
            failures.extend(lines)
            if compared != len(ir["steps"]):
                failures.append(f"{SAMPLE}: target '{target}': {compared} steps compared")
    # Byte for byte, against the files on disk.
    folder = os.path.join(t.SOURCE_DIR, "samples", "code_project")
    flow_files = expected_files(folder, ["prep.py", "train.py", "lib/*.py", "conf/*.yaml",
                                         "assets/labels.bin"])
    eval_files = expected_files(folder, ["evaluate.py", "lib/*.py", "conf/eval.yaml"])
    expect = {"start": ("/workspace", flow_files), "train": ("/workspace", flow_files),
              "evaluate": ("/opt/eval", eval_files), "end": ("/srv/project", flow_files)}
    if not any(p.endswith(".bin") for p in flow_files) or len(flow_files) < 8:
        failures.append(f"the sample's project lost files: {sorted(flow_files)}")
    for target in TARGETS:
        checked += 1
        failures.extend(byte_problems(target, outputs[target], ir, folder, expect, SAMPLE))
    names = {o["name"] for o in ir["objects"] if o["kind"] == "ConfigMap"}
    if len(names) != 2:
        failures.append(f"{SAMPLE}: {len(names)} ConfigMaps in the IR, expected 2: {names}")
    return checked


# --- hostile files -------------------------------------------------------------------------

HOSTILE_TEXT = {
    "crlf.py": b"print('a')\r\nprint('b')\r\n",
    "bom.txt": b"\xef\xbb\xbfstarts with a BOM\n",
    "separators.txt": "line\u2028separator\u2029paragraph\u0085next line\n".encode(),
    "no_final_newline.sh": b"echo no newline",
    "only_newlines.txt": b"\n\n\n",
    "spaces.txt": b"  leading and trailing  \n\ttab\t\n   \n",
    "braces.j2": b"{{ params.x }} {% if a %}{{'{{'}}{% endif %} {# c #} {{workflow.name}}\n",
    "dollars.sh": b"echo $(HOME) $$ ${X} $\n",
    "yamlish.yaml": b"--- \n...\nkey: value\n- item\n'quoted'\n\"double\"\n#c\nyes\n0755\n~\n: x\n",
    "empty.txt": b"",
    "controls.txt": b"bell\x07 escape\x1b[0m del\x7f vt\x0b ff\x0c\n",
    "accents/d\u00e9j\u00e0 vu.md": "caf\u00e9 \U0001F600\n".encode(),
    "dash-name/with-dashes_and_underscores.cfg": b"a=1\n",
    "deep/er/and/deeper/file.json": b'{"a": [1, 2]}\n',
    ".hidden.env": b"SHIPPED=only when named\n",
    "x" * 120 + "/" + "y" * 150 + ".txt": b"a path too long for a ConfigMap key\n",
    "big.txt": ("0123456789abcdef" * 4096 + "\n").encode() * 2,
}
HOSTILE_BINARY = {
    "nul.bin": b"a\x00b",
    "invalid.bin": b"\xff\xfe\xfd",
    "utf16.txt": "UTF-16 text\n".encode("utf-16"),
    "surrogate.txt": b"\xed\xa0\x80 CESU-8",
    "overlong.txt": b"\xc0\xaf",
    "image.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)),
}
HOSTILE_PATTERNS = ["*.py", "*.txt", "*.sh", "*.j2", "*.yaml", "*.bin", "*.png", "accents/*",
                    "dash-name/*", "deep/er/and/deeper/*", ".hidden.env", "x*/*"]


def write_project(folder, files):
    for path, content in files.items():
        full = os.path.join(folder, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(content)


def hostile_tests(failures):
    checked = 0
    with tempfile.TemporaryDirectory(prefix="flowc-code-") as folder, \
            tempfile.TemporaryDirectory(prefix="flowc-code-out-") as out_dir:
        write_project(folder, {**HOSTILE_TEXT, **HOSTILE_BINARY})
        os.symlink("crlf.py", os.path.join(folder, "link.py"))
        patterns = HOSTILE_PATTERNS
        flow = (f"@code(files={json.dumps(patterns)})\n@kubernetes(namespace=\"ml\")\n"
                "flow hostile {\n  step start { run \"python crlf.py\" next end }\n"
                "  @parallel(nodes=2)\n  step end { run \"sh dollars.sh\" }\n}\n")
        with open(os.path.join(folder, "hostile.flow"), "w", encoding="utf-8") as f:
            f.write(flow)
        files = expected_files(folder, patterns)
        if len(files) != len(HOSTILE_TEXT) + len(HOSTILE_BINARY) + 1:
            failures.append(f"hostile project: Python's glob found {len(files)} files")
        result = flowc(["compile", "hostile.flow", "--target", "ir"], folder)
        checked += 1
        if result.returncode != 0:
            failures.append(f"hostile.flow does not compile:\n{result.stderr.decode()}")
            return checked
        ir = json.loads(result.stdout)
        (cm,) = [o for o in ir["objects"] if o["kind"] == "ConfigMap"]
        binary = {i["path"] for i in cm["configMap"]["items"]
                  if i["key"] in cm["configMap"].get("binaryData", {})}
        if binary != set(HOSTILE_BINARY):
            failures.append(f"hostile.flow: binaryData holds {sorted(binary)}, expected "
                            f"{sorted(HOSTILE_BINARY)}")
        expect = {"start": ("/workspace", files), "end": ("/workspace", files)}
        for target in TARGETS:
            checked += 1
            result = flowc(["compile", "hostile.flow", "--target", target], folder)
            if result.returncode != 0:
                failures.append(f"hostile.flow --target {target}:\n{result.stderr.decode()}")
                continue
            text = result.stdout.decode("utf-8")
            failures.extend(byte_problems(target, text, ir, folder, expect, "hostile.flow"))
            if target != "airflow":
                checked += 1
                path = os.path.join(out_dir, target + ".yaml")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
                ok, out = t.validate([path])
                if not ok:
                    failures.append(f"hostile.flow --target {target}: conformance:\n{out}")
    return checked


# --- drift, failures, stdin ----------------------------------------------------------------

def drift_tests(failures):
    checked = 0
    with tempfile.TemporaryDirectory(prefix="flowc-code-") as tmp:
        project = os.path.join(tmp, "project")
        shutil.copytree(os.path.join(t.SOURCE_DIR, "samples", "code_project"), project,
                        symlinks=True)
        flow = "code_project.flow"
        out = os.path.join(tmp, "out.yaml")
        r1 = flowc(["compile", flow, "--target", "argo", "-o", out], project)
        checked += 1
        if r1.returncode != 0:
            failures.append(f"drift: compile failed:\n{r1.stderr.decode()}")
            return checked
        with open(out, encoding="utf-8") as f:
            first = f.read()
        old_names = {cm["metadata"]["name"] for cm in yaml_configmaps(first)}

        def check(what, want_status):
            result = flowc(["compile", flow, "--target", "argo", "-o", out, "--check"], project)
            if result.returncode != want_status:
                failures.append(f"drift: {what}: --check exits {result.returncode}, expected "
                                f"{want_status}:\n{result.stdout.decode()[:2000]}")
            return result.stdout.decode()

        checked += 1
        if check("nothing changed", 0):
            failures.append("drift: --check printed a diff for an unchanged project")
        with open(os.path.join(project, "train.py"), "a", encoding="utf-8") as f:
            f.write("# a change of code\n")
        checked += 1
        diff = check("train.py changed", 1)
        if "# a change of code" not in diff:
            failures.append(f"drift: the diff does not show the changed line:\n{diff[:2000]}")
        fresh = flowc(["compile", flow, "--target", "argo"], project).stdout.decode()
        new_names = {cm["metadata"]["name"] for cm in yaml_configmaps(fresh)}
        checked += 1
        # The flow's ConfigMap (train.py is in it) is new; evaluate's, without train.py, not.
        if len(new_names - old_names) != 1 or len(old_names & new_names) != 1:
            failures.append(f"drift: names before {old_names}, after {new_names}")
        for name in new_names - old_names:
            if f"+  name: {name}" not in diff:
                failures.append(f"drift: the diff does not show the new name {name}")
        with open(out, "w", encoding="utf-8") as f:
            f.write(fresh)
        os.rename(os.path.join(project, "lib", "report.py"), os.path.join(project, "lib", "reports.py"))
        checked += 1
        check("a file renamed, same bytes", 1)
        with open(out, encoding="utf-8") as f:
            if f.read() != fresh:
                failures.append("drift: --check wrote the output file")
    return checked


def failure_tests(failures):
    checked = 0
    with tempfile.TemporaryDirectory(prefix="flowc-code-") as folder:
        os.chmod(folder, 0o755)
        write_project(folder, {"a.py": b"print(1)\n", "secret.py": b"x\n", "conf/a.yaml": b"a\n"})

        def flow_with(files, name):
            text = (f"@code(files={json.dumps(files)})\nflow f {{\n"
                    "  step start { run \"python a.py\" next end }\n  step end { run \"e\" }\n}\n")
            path = os.path.join(folder, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(path, 0o644)
            return name

        def expect(what, result, status, stderr):
            got = result.stderr.decode("utf-8", "replace")
            if result.returncode != status or got != stderr or result.stdout:
                failures.append(f"{what}: exit {result.returncode} (expected {status}), "
                                f"{len(result.stdout)} bytes on stdout, stderr:\n{got}"
                                f"expected stderr:\n{stderr}")

        # A missing file: exit 1, no output file, an existing one untouched.
        missing = flow_with(["a.py", "b.py"], "missing.flow")
        out = os.path.join(folder, "out.yaml")
        for target in ("ir", "argo", "jobset", "airflow"):
            checked += 1
            result = flowc(["compile", missing, "--target", target, "-o", out], folder)
            expect(f"missing file --target {target}", result, 1,
                   "missing.flow:1:22: error: file 'b.py' not found in the flow's folder [E060]\n"
                   "@code(files=[\"a.py\", \"b.py\"])\n"
                   "                     ^~~~~~\n"
                   "help: did you mean 'a.py'?\n")
            if os.path.exists(out):
                failures.append(f"missing file --target {target}: {out} was written")
        with open(out, "w", encoding="utf-8") as f:
            f.write("previous output\n")
        checked += 1
        flowc(["compile", missing, "--target", "argo", "-o", out], folder)
        with open(out, encoding="utf-8") as f:
            if f.read() != "previous output\n":
                failures.append("a failed compile changed the existing output file")
        os.remove(out)
        leftovers = [n for n in os.listdir(folder) if n.startswith(".") or n.endswith(".tmp")]
        if leftovers:
            failures.append(f"temporary files left behind: {leftovers}")

        # A FIFO: refused, never read (reading it would block).
        os.mkfifo(os.path.join(folder, "pipe.py"))
        checked += 1
        expect("a FIFO", flowc(["check", flow_with(["*.py"], "fifo.flow")], folder), 1,
               "fifo.flow:1:14: error: 'pipe.py' is not a regular file [E063]\n"
               "@code(files=[\"*.py\"])\n"
               "             ^~~~~~\n"
               "note: '*.py' matches 'pipe.py'\n"
               "help: a ConfigMap holds file contents: leave FIFOs, sockets and devices out\n")
        os.remove(os.path.join(folder, "pipe.py"))

        # Unreadable: an I/O error, exit 3, no output. root reads every file, so the test
        # runs flowc as nobody then.
        user = 65534 if os.geteuid() == 0 else None
        os.chmod(os.path.join(folder, "secret.py"), 0)
        checked += 1
        result = flowc(["compile", flow_with(["a.py", "secret.py"], "unreadable.flow"), "--target",
                        "argo", "-o", out], folder, user=user)
        expect("an unreadable file", result, 3,
               "unreadable.flow:1:22: error: cannot read 'secret.py': Permission denied [E065]\n"
               "@code(files=[\"a.py\", \"secret.py\"])\n"
               "                     ^~~~~~~~~~~\n"
               "help: make it readable by the user who runs flowc\n")
        if os.path.exists(out):
            failures.append("an unreadable file: the output file was written")
        os.chmod(os.path.join(folder, "conf"), 0)
        checked += 1
        result = flowc(["check", flow_with(["conf/*.yaml"], "unreadable_dir.flow")], folder,
                       user=user)
        expect("an unreadable folder", result, 3,
               "unreadable_dir.flow:1:14: error: cannot read 'conf/*.yaml': conf: Permission "
               "denied [E065]\n"
               "@code(files=[\"conf/*.yaml\"])\n"
               "             ^~~~~~~~~~~~~\n"
               "help: make it readable by the user who runs flowc\n")
        os.chmod(os.path.join(folder, "conf"), 0o755)
        os.chmod(os.path.join(folder, "secret.py"), 0o644)

        # A flow read from stdin ships the files of the current folder.
        checked += 1
        with open(os.path.join(folder, missing), "rb") as f:
            text = f.read()
        expect("stdin", flowc(["check", "-"], folder, input=text), 1,
               "<stdin>:1:22: error: file 'b.py' not found in the current folder [E060]\n"
               "@code(files=[\"a.py\", \"b.py\"])\n"
               "                     ^~~~~~\n"
               "help: did you mean 'a.py'?\n")
        checked += 1
        result = flowc(["compile", "-", "--target", "ir"], folder,
                       input=text.replace(b'"b.py"', b'"conf/a.yaml"'))
        if result.returncode != 0 or b'"conf--a.yaml": "a\\n"' not in result.stdout:
            failures.append(f"stdin: the current folder's files are not shipped:\n"
                            f"{result.stderr.decode()}")
    return checked


def main():
    failures = []
    checked = sample_tests(failures)
    checked += hostile_tests(failures)
    checked += drift_tests(failures)
    checked += failure_tests(failures)
    t.finish("test_code", failures, checked)


if __name__ == "__main__":
    main()
