"""Shared helpers for flowc's end-to-end tests (tests/py/test_*.py).

Every test runs the real `flowc` binary (env FLOWC) from the source tree (env
FLOWC_SOURCE_DIR) and reads its output back with independent readers. Golden
files are rewritten instead of compared when FLOWC_UPDATE_GOLDENS=1 (see
tests/update_goldens.sh).
"""
import difflib
import glob
import json
import os
import subprocess
import sys

SOURCE_DIR = os.environ.get("FLOWC_SOURCE_DIR") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FLOWC = os.environ.get("FLOWC") or os.path.join(SOURCE_DIR, "build", "flowc")
UPDATE = os.environ.get("FLOWC_UPDATE_GOLDENS") == "1"
# The team's independent conformance kit, beside the repository where it is present: only
# test_conformance.py and test_realworld.py use it, and skip without it.
# FLOWC_CONFORMANCE_DIR names it elsewhere (a git worktree that is not beside ../shared).
CONFORMANCE_DIR = os.environ.get("FLOWC_CONFORMANCE_DIR") or os.path.join(
    os.path.dirname(SOURCE_DIR), "shared", "conformance")
CONFORMANCE = os.path.join(CONFORMANCE_DIR, "validate")
PYTHON = "/usr/bin/python3"


def run_flowc(*args, input=None):
    """Runs flowc with `args`; returns the CompletedProcess (text mode)."""
    return subprocess.run([FLOWC, *args], input=input, capture_output=True, text=True,
                          cwd=SOURCE_DIR)


def compile_flow(path, target):
    """Compiles `path` for `target` to stdout; fails the test on any error."""
    result = run_flowc("compile", path, "--target", target, "-o", "-")
    if result.returncode != 0:
        raise AssertionError(f"flowc compile {path} --target {target} failed "
                             f"({result.returncode}):\n{result.stderr}")
    return result.stdout


def samples():
    """Every sample flow, as paths relative to the source dir, sorted."""
    return sorted(os.path.relpath(p, SOURCE_DIR)
                  for p in glob.glob(os.path.join(SOURCE_DIR, "samples", "*.flow")))


def test_flows():
    """Flows written to stress the compiler (tests/flows/*.flow), sorted."""
    return sorted(os.path.relpath(p, SOURCE_DIR)
                  for p in glob.glob(os.path.join(SOURCE_DIR, "tests", "flows", "*.flow")))


def ir_of(path):
    """The IR of `path` as a dict (flowc compile --target ir)."""
    return json.loads(compile_flow(path, "ir"))


def ir_pods(path):
    """{step name: reference pod} from the IR of `path`."""
    return {step["name"]: step["pod"] for step in ir_of(path)["steps"]}


def check_golden(golden_path, actual, failures):
    """Compares `actual` with the file at `golden_path` (or rewrites it)."""
    full = os.path.join(SOURCE_DIR, golden_path)
    if UPDATE:
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(actual)
        return
    if not os.path.exists(full):
        failures.append(f"MISSING golden {golden_path} (run tests/update_goldens.sh)")
        return
    with open(full, encoding="utf-8") as f:
        expected = f.read()
    if expected != actual:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            golden_path, "actual"))
        failures.append(f"DIFF {golden_path}:\n{diff}")


def validate(paths, *extra):
    """Runs `flowc validate` on `paths` (extra: --argo-version V ...); returns (ok, output).
    A crash or a usage error is never a pass: only exit status 0 is."""
    if not paths:
        return True, ""
    result = run_flowc("validate", *extra, *paths)
    return result.returncode == 0, result.stdout + result.stderr


def conformance(paths, *extra):
    """Runs the conformance kit (../shared/conformance/validate) on `paths`; returns
    (exit status, output). Only for test_conformance.py, which skips when the kit is absent."""
    result = subprocess.run([PYTHON, CONFORMANCE, *extra, *paths], capture_output=True,
                            text=True)
    return result.returncode, result.stdout + result.stderr


def diff_pods(expected, actual, where):
    """Field-by-field differences between two pod dicts, as readable lines."""
    lines = []

    def walk(a, b, path):
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                if key not in b:
                    lines.append(f"{where}: {path}.{key}: missing (expected {json.dumps(a[key])})")
                elif key not in a:
                    lines.append(f"{where}: {path}.{key}: unexpected {json.dumps(b[key])}")
                else:
                    walk(a[key], b[key], f"{path}.{key}")
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b)):
                walk(x, y, f"{path}[{i}]")
        elif a != b or type(a) is not type(b):
            lines.append(f"{where}: {path}: expected {json.dumps(a)}, got {json.dumps(b)}")

    walk(expected, actual, "pod")
    return lines


class Expectations:
    """A test file's checks, called as expect(name, condition, detail): each call counts one,
    and a false condition is a failure. Its `failures` list also takes failures found
    otherwise (check_golden appends to it)."""

    def __init__(self):
        self.failures = []
        self.checked = 0

    def __call__(self, name, condition, detail=""):
        self.checked += 1
        if not condition:
            self.failures.append(f"{name}: {detail}")


def finish(name, failures, checked):
    """Prints the outcome in a form ctest and people read; exits non-zero on failure."""
    for failure in failures:
        print(failure)
    if checked == 0 and not UPDATE:
        print(f"{name}: checked nothing")
        sys.exit(1)
    print(f"{name}: {checked - len(failures) if checked >= len(failures) else 0} passed, "
          f"{len(failures)} failed")
    sys.exit(1 if failures else 0)
