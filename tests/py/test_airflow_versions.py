"""Every golden DAG imports with every kubernetes client and Airflow the docs name (issue 31).

A DAG that fails its import runs nothing, so this test checks the names a DAG file uses against
the kubernetes clients the cncf.kubernetes provider allows (29 to 35), as recorded in
tests/data/kubernetes_client_models.json:
  0. the record itself: each version's complete class list (kubernetes/client/models/__init__.py),
     rebuilt from client 35's list and the added/removed classes of each step, has the recorded
     count, gives the recorded length of the generated __init__.py where one was read (header
     plus one import line per class), and has every model with recorded attributes;
  1. every `k8s.X` in a golden DAG (tests/golden/airflow, its cases), in templates/airflow and in
     what backends/airflow can write (`k8s("X", ...)`) is in every version's class list, and
     every keyword a golden DAG or the backend's brace list passes to it is a recorded attribute
     of X in every version (a typed model refuses an unknown keyword, and serializes only its
     own attributes);
  2. a model chosen between versions (`NAME = flowc_model("A", "B")` in templates/airflow) has
     one of its names in every version's class list, and the keywords the DAGs pass to NAME are
     attributes of the one chosen there; the chosen name may not also be used as `k8s.A`
     directly;
  3. the stand-in models (tests/py/airflow_stub/k8s_models.py) have exactly the recorded claim
     models of each version, so that (4) runs against the recorded shapes;
  4. every golden DAG imports with the stand-in Airflow modules, as Airflow 3 and as Airflow 2,
     with the models of each client version: among them the two shapes of issue 31, with
     `V1ResourceClaim` (29-33) and with only `CoreV1ResourceClaim` (34, 35); on Airflow 3 the
     import loads none of the Airflow 2 modules (airflow.decorators, airflow.models.param);
  5. the checks in (1) and (4) can fail: `k8s.V1ResourceClaim` is flagged by (1) for exactly 34
     and 35, a `flowc_model` whose names are all missing from one version is flagged, and a DAG
     naming `k8s.V1ResourceClaim` fails to import with the 34 and 35 shapes;
  6. flowc_model itself: the first name the models have, an ImportError naming them all when
     none.
Run with `--import VERSION AIRFLOW FILE...` it is the subprocess that imports for (3) and (4).
"""
import ast
import glob
import json
import os
import re
import runpy
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
STUB = os.path.join(HERE, "airflow_stub")
import flowc_testlib as lib  # noqa: E402

DATA = os.path.join("tests", "data", "kubernetes_client_models.json")
CLAIM_FAMILY = ("V1ResourceClaim", "CoreV1ResourceClaim", "ResourceV1ResourceClaim",
                "V1PodResourceClaim", "V1ClaimSource")


def golden_dags():
    root = os.path.join(lib.SOURCE_DIR, "tests", "golden", "airflow")
    return sorted(glob.glob(os.path.join(root, "*.py")) + glob.glob(os.path.join(root, "cases",
                                                                              "*.py")))


def template_files():
    return sorted(glob.glob(os.path.join(lib.SOURCE_DIR, "templates", "airflow", "*.py")))


class Uses(ast.NodeVisitor):
    """The `k8s.X` names of a Python file, the keywords of each call, and the models chosen
    between versions (`NAME = flowc_model("A", ...)`) with the keywords of calls to NAME."""

    def __init__(self):
        self.names = {}      # X -> set of keywords passed to k8s.X(...)
        self.chosen = {}     # NAME -> tuple of model names
        self.alias_calls = {}  # NAME -> set of keywords

    def visit_Assign(self, node):
        call = node.value
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == "flowc_model" and len(node.targets) == 1):
            self.chosen[node.targets[0].id] = tuple(a.value for a in call.args)
        self.generic_visit(node)

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.value.id == "k8s":
            self.names.setdefault(node.attr, set())
        self.generic_visit(node)

    def visit_Call(self, node):
        func = node.func
        keywords = {k.arg for k in node.keywords if k.arg}
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id == "k8s":
            self.names.setdefault(func.attr, set()).update(keywords)
        elif isinstance(func, ast.Name) and func.id.startswith("FLOWC_"):
            self.alias_calls.setdefault(func.id, set()).update(keywords)
        self.generic_visit(node)


def class_lists(data, failures):
    """Each version's complete list of model classes, rebuilt from the record's base list and
    steps (each step: the classes the newer client added and removed)."""
    lists = data["class_lists"]
    classes = {lists["base"]: set(lists[lists["base"]])}
    for version in sorted(data["versions"], key=int, reverse=True):
        if version in classes:
            continue
        step = next((s for s in lists["steps"] if s["from"] == version), None)
        if step is None or step["to"] not in classes:
            failures.append(f"class_lists: no step from client {version}")
            classes[version] = set()
            continue
        newer = classes[step["to"]]
        added, removed = set(step["added"]), set(step["removed"])
        if not added <= newer or removed & newer:
            failures.append(f"class_lists: step {version} -> {step['to']} does not fit "
                            f"{step['to']}'s list")
        classes[version] = (newer - added) | removed
    return classes


def snake_case(name):
    """The module of a model class, as the client's generator names it: V1APIGroup ->
    v1_api_group, V1alpha1ServiceCIDR -> v1alpha1_service_cidr."""
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"([a-z\d])([A-Z])", r"\1_\2", name).lower()


def check_record(data, classes, failures):
    checked = 0
    for version, entry in sorted(data["versions"].items()):
        checked += 1
        if len(classes[version]) != entry["classes"]:
            failures.append(f"client {version}: {len(classes[version])} classes rebuilt, "
                            f"{entry['classes']} recorded")
        init = entry.get("init_py")
        if init:
            # The generated __init__.py: its header, then one import line per class.
            checked += 1
            chars = init["header_chars"] + sum(
                len(f"from kubernetes.client.models.{snake_case(c)} import {c}\n")
                for c in classes[version])
            if chars != init["chars"]:
                failures.append(f"client {version}: the rebuilt list gives an __init__.py of "
                                f"{chars} characters, commit {init['commit']} has {init['chars']}")
        stray = sorted(set(entry["models"]) - classes[version])
        if stray:
            failures.append(f"client {version}: attributes recorded for {stray}, which its "
                            "models/__init__.py does not have")
    return checked


def collect_uses():
    uses = Uses()
    uses.backend_keywords = 0
    for path in golden_dags() + template_files():
        with open(path, encoding="utf-8") as f:
            uses.visit(ast.parse(f.read(), path))
    # What the backend can write, whether or not a golden DAG has it: `k8s("X", {{"kw", ...},
    # ...})` names X, and the keywords written out in its brace list (those in a variable are
    # checked through the golden DAGs).
    for path in glob.glob(os.path.join(lib.SOURCE_DIR, "backends", "airflow", "*.cc")):
        with open(path, encoding="utf-8") as f:
            code = f.read()
        for call in re.finditer(r'\bk8s\("(\w+)",\s*', code):
            keys = brace_keys(code, call.end())
            uses.names.setdefault(call.group(1), set()).update(keys)
            uses.backend_keywords += len(keys)
    return uses


def brace_keys(code, at):
    """The keys of the `{{"key", value}, ...}` list that starts at code[at], if one does."""
    keys, depth = set(), 0
    for i in range(at, len(code)):
        if code[i] == "{":
            depth += 1
            if depth == 2:
                key = re.match(r'\{\s*"(\w+)"\s*,', code[i:])
                if key:
                    keys.add(key.group(1))
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                break
        elif depth == 0:
            break
    return keys


def check_names(data, classes, uses, failures):
    checked = 0
    for version, entry in sorted(data["versions"].items()):
        models = entry["models"]
        for name, keywords in sorted(uses.names.items()):
            checked += 1
            if name not in classes[version]:
                failures.append(f"client {version}: k8s.{name} is not in its models/__init__.py")
            elif name not in models:
                failures.append(f"client {version}: k8s.{name} has no recorded attributes")
            elif keywords - set(models[name]):
                failures.append(f"client {version}: k8s.{name} has no "
                                f"{sorted(keywords - set(models[name]))}")
        for alias, names in sorted(uses.chosen.items()):
            checked += 1
            present = [n for n in names if n in classes[version]]
            if not present:
                failures.append(f"client {version}: {alias} finds none of {names}")
                continue
            if present[0] not in models:
                failures.append(f"client {version}: {alias} is {present[0]}, which has no "
                                "recorded attributes")
                continue
            missing = uses.alias_calls.get(alias, set()) - set(models[present[0]])
            if missing:
                failures.append(f"client {version}: {alias} is {present[0]}, which has no "
                                f"{sorted(missing)}")
    for alias, names in uses.chosen.items():
        if alias not in uses.alias_calls:
            failures.append(f"no golden DAG calls {alias}: its keywords go unchecked")
        for name in names:
            if name in uses.names:
                failures.append(f"k8s.{name} is named directly, not through {alias}")
    return checked


def check_names_control(data, classes, failures):
    """check_names flags a name some versions lack, and a choice none of whose names a version
    has, for exactly those versions."""
    checked = 0
    for setup, expected in (
            (lambda u: u.names.setdefault("V1ResourceClaim", {"name"}),
             ["client 34: k8s.V1ResourceClaim is not in its models/__init__.py",
              "client 35: k8s.V1ResourceClaim is not in its models/__init__.py"]),
            (lambda u: u.names.setdefault("V1ClaimSource", set()),
             [f"client {v}: k8s.V1ClaimSource is not in its models/__init__.py"
              for v in ("31", "32", "33", "34", "35")]),
            (lambda u: (u.chosen.__setitem__("FLOWC_X", ("V1ResourceClaim",)),
                        u.alias_calls.__setitem__("FLOWC_X", {"name"})),
             ["client 34: FLOWC_X finds none of ('V1ResourceClaim',)",
              "client 35: FLOWC_X finds none of ('V1ResourceClaim',)"])):
        checked += 1
        uses = Uses()
        uses.names["V1Pod"] = {"spec"}
        setup(uses)
        got = []
        check_names(data, classes, uses, got)
        if got != expected:
            failures.append(f"the names check gave {got}, expected {expected}")
    return checked


def import_dags(version, airflow, paths):
    """The subprocess: imports each DAG file; prints {path: error or None} and the Airflow 2
    modules an import loaded."""
    os.environ["FLOWC_STUB_AIRFLOW"] = airflow
    sys.path.insert(0, STUB)
    import k8s_models
    k8s_models.install(version)
    from kubernetes.client import models
    from airflow import _stub
    result = {"claim_models": sorted(n for n in CLAIM_FAMILY if hasattr(models, n)),
              "fields": {n: sorted(getattr(models, n).openapi_types) for n in CLAIM_FAMILY
                         if hasattr(models, n)},
              "dags": {}}
    for path in paths:
        before = set(sys.modules)
        del _stub.DAGS[:]
        try:
            runpy.run_path(path, run_name="flowc_dag")
            error = None if len(_stub.DAGS) == 1 else f"{len(_stub.DAGS)} DAGs"
        except Exception as e:  # the dag-processor's import error
            error = f"{type(e).__name__}: {e}"
        finally:
            _stub._State.dag = None
            _stub._State.groups = []
        loaded = sorted(m for m in set(sys.modules) - before
                        if m in ("airflow.decorators", "airflow.models.param"))
        for m in loaded:
            del sys.modules[m]
        result["dags"][path] = {"error": error, "airflow2_modules": loaded}
    json.dump(result, sys.stdout)


def run_imports(version, airflow, paths):
    ran = subprocess.run([lib.PYTHON, os.path.abspath(__file__), "--import", version, airflow,
                          *paths], capture_output=True, text=True)
    if ran.returncode != 0:
        raise AssertionError(f"client {version}, Airflow {airflow}: {ran.stderr[-2000:]}")
    return json.loads(ran.stdout)


def check_imports(data, classes, failures, counts):
    checked = 0
    paths = golden_dags()
    for version, entry in sorted(data["versions"].items()):
        recorded = {n: sorted(entry["models"].get(n, [])) for n in CLAIM_FAMILY
                    if n in classes[version]}
        for airflow in ("3", "2"):
            try:
                result = run_imports(version, airflow, paths)
            except AssertionError as e:
                failures.append(str(e))
                continue
            checked += 1
            if result["claim_models"] != sorted(recorded):
                failures.append(f"client {version}: the stand-in has {result['claim_models']}, "
                                f"the record {sorted(recorded)}")
            for name, fields in recorded.items():
                if name in result["fields"] and set(fields) - set(result["fields"][name]):
                    failures.append(f"client {version}: stand-in {name} lacks "
                                    f"{sorted(set(fields) - set(result['fields'][name]))}")
            if airflow == "2" and not any(d["airflow2_modules"] for d in result["dags"].values()):
                failures.append(f"client {version}: as on Airflow 2 no DAG loaded "
                                "airflow.decorators: the Airflow 3 check below sees nothing")
            ok = 0
            for path, dag in result["dags"].items():
                checked += 1
                where = f"client {version}, Airflow {airflow}: {os.path.relpath(path)}"
                if dag["error"]:
                    failures.append(f"{where}: import error: {dag['error']}")
                    continue
                if airflow == "3" and dag["airflow2_modules"]:
                    failures.append(f"{where}: imports {dag['airflow2_modules']} on Airflow 3")
                ok += 1
            counts[(version, airflow)] = (ok, len(result["dags"]))
    return checked


def check_control(failures):
    """A DAG that names k8s.V1ResourceClaim imports with client 33 and fails with 34 and 35."""
    source = [p for p in golden_dags() if "FLOWC_RESOURCE_CLAIM(" in open(p).read()]
    if not source:
        failures.append("no golden DAG has a DRA claim")
        return 1
    with open(source[0], encoding="utf-8") as f:
        text = f.read().replace("FLOWC_RESOURCE_CLAIM(", "k8s.V1ResourceClaim(")
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "old_claims.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        for version, want in (("33", None), ("34", "AttributeError"), ("35", "AttributeError")):
            checked += 1
            error = run_imports(version, "3", [path])["dags"][path]["error"]
            if (error or "").split(":")[0] != (want or ""):
                failures.append(f"client {version}: k8s.V1ResourceClaim gave {error!r}, "
                                f"expected {want}")
    return checked


def check_helper(failures):
    """flowc_model (templates/airflow/flowc_models.py) on stand-in model modules."""
    with open(os.path.join(lib.SOURCE_DIR, "templates", "airflow", "flowc_models.py"),
              encoding="utf-8") as f:
        code = f.read()
    checked = 0
    for present, expected in (({"V1ResourceClaim"}, "V1ResourceClaim"),
                              ({"CoreV1ResourceClaim", "ResourceV1ResourceClaim"},
                               "CoreV1ResourceClaim"),
                              ({"CoreV1ResourceClaim", "V1ResourceClaim"}, "CoreV1ResourceClaim"),
                              (set(), "ImportError: kubernetes.client.models has none of "
                                      "CoreV1ResourceClaim, V1ResourceClaim")):
        checked += 1
        k8s = type("models", (), {name: type(name, (), {}) for name in present})
        try:
            ns = {"k8s": k8s}
            exec(code, ns)
            got = ns["FLOWC_RESOURCE_CLAIM"].__name__
        except ImportError as e:
            got = f"ImportError: {e}"
        if got != expected:
            failures.append(f"flowc_model with {sorted(present)}: {got}, expected {expected}")
    return checked


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "--import":
        import_dags(sys.argv[2], sys.argv[3], sys.argv[4:])
        return
    failures = []
    with open(os.path.join(lib.SOURCE_DIR, DATA), encoding="utf-8") as f:
        data = json.load(f)
    counts = {}
    classes = class_lists(data, failures)
    checked = check_record(data, classes, failures)
    uses = collect_uses()
    if not uses.chosen or "V1Pod" not in uses.names or not uses.backend_keywords:
        failures.append(f"found too little to check: {sorted(uses.names)}, {uses.chosen}, "
                        f"{uses.backend_keywords} keywords in backends/airflow")
    checked += check_names(data, classes, uses, failures)
    checked += check_names_control(data, classes, failures)
    checked += check_helper(failures)
    checked += check_imports(data, classes, failures, counts)
    checked += check_control(failures)
    for (version, airflow), (ok, total) in sorted(counts.items()):
        print(f"client {version}, Airflow {airflow}: {ok} of {total} golden DAGs import")
    lib.finish("test_airflow_versions", failures, checked)


if __name__ == "__main__":
    main()
