"""End-to-end test of flowc's error diagnostics.

Every tests/errors/<name>.flow is a small flow with one (sometimes a few)
mistakes; tests/errors/<name>.stderr is exactly what `flowc check <name>.flow`
must print on stderr when run in tests/errors (so paths print as
`<name>.flow`). Each case must also exit with status 1 and print nothing on
stdout. The whole rendered diagnostic is compared, caret and help included.

Also checked:
  - `--diagnostics-format json` on a few cases parses as JSON and reports the
    same codes, lines and columns as the text form;
  - `flowc check` accepts every samples/*.flow (exit 0, empty stderr).

Environment:
  FLOWC                  the flowc binary (default: <repo>/build/flowc)
  FLOWC_SOURCE_DIR       the repository root (default: two levels above this file)
  FLOWC_UPDATE_GOLDENS=1 rewrite the .stderr files from the compiler's output
                         instead of comparing (then read every diff before
                         committing it)

Prints one line per failure, then `N passed, M failed`; exits non-zero on any
failure. Run with /usr/bin/python3.
"""
import difflib
import glob
import json
import os
import re
import subprocess
import sys

SOURCE_DIR = os.environ.get("FLOWC_SOURCE_DIR") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FLOWC = os.environ.get("FLOWC") or os.path.join(SOURCE_DIR, "build", "flowc")
UPDATE = os.environ.get("FLOWC_UPDATE_GOLDENS") == "1"
ERRORS_DIR = os.path.join(SOURCE_DIR, "tests", "errors")
TIMEOUT_SECONDS = 60

# Cases whose JSON diagnostics are compared with their text diagnostics: one
# error, several errors in source order, and an error with a note.
JSON_CASES = ["unknown_next", "many_errors", "gpu_flow_default_trainium_step"]

# `FILE:LINE:COL: error: MESSAGE [CODE]` -- the first line of a diagnostic.
HEADLINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<column>\d+): "
                      r"(?P<severity>error|warning): .* \[(?P<code>[EW]\d{3})\]$")


class RunError(Exception):
    """flowc could not be run to completion (timeout, or not executable)."""


def run(args, cwd):
    """Runs flowc; returns (status, stdout bytes, stderr bytes); raises RunError."""
    try:
        result = subprocess.run([FLOWC, *args], cwd=cwd, capture_output=True,
                                timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        raise RunError(f"flowc {' '.join(args)} did not finish in {TIMEOUT_SECONDS}s")
    except OSError as e:
        raise RunError(f"cannot run {FLOWC}: {e}")
    return result.returncode, result.stdout, result.stderr


def describe_status(status):
    if status < 0:
        return f"killed by signal {-status} (crash)"
    return f"exit status {status}"


def show(data):
    """Bytes as text for a message, invalid UTF-8 shown as \\xNN."""
    return data.decode("utf-8", errors="backslashreplace")


def diff(expected, actual, expected_name):
    lines = difflib.unified_diff(show(expected).splitlines(True), show(actual).splitlines(True),
                                 expected_name, "actual stderr")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)


def check_case(name, failures):
    """One error case: status 1, empty stdout, stderr equal to the golden."""
    flow = f"{name}.flow"
    golden = os.path.join(ERRORS_DIR, f"{name}.stderr")
    try:
        status, out, err = run(["check", flow], ERRORS_DIR)
    except RunError as e:
        failures.append(f"FAIL {flow}: {e}")
        return
    problems = []
    if status != 1:
        problems.append(f"expected exit status 1, got {describe_status(status)}")
    if out:
        problems.append(f"expected empty stdout, got:\n{show(out)}")
    if UPDATE:
        with open(golden, "wb") as f:
            f.write(err)
    elif not os.path.exists(golden):
        problems.append(f"MISSING golden tests/errors/{name}.stderr (run with "
                        f"FLOWC_UPDATE_GOLDENS=1); stderr was:\n{show(err)}")
    else:
        with open(golden, "rb") as f:
            expected = f.read()
        if expected != err:
            problems.append("stderr differs from the golden:\n" +
                            diff(expected, err, f"tests/errors/{name}.stderr"))
    if problems:
        failures.append(f"FAIL {flow}: " + "\n".join(problems))


def headlines_of_text(text):
    """[(code, line, column)] of every diagnostic in rendered text."""
    out = []
    for line in text.splitlines():
        m = HEADLINE.match(line)
        if m:
            out.append((m["code"], int(m["line"]), int(m["column"])))
    return out


def check_json(name, failures):
    """`--diagnostics-format json` agrees with the text form of the same run."""
    flow = f"{name}.flow"
    try:
        _, _, text_err = run(["check", flow], ERRORS_DIR)
        status, out, err = run(["check", "--diagnostics-format", "json", flow], ERRORS_DIR)
    except RunError as e:
        failures.append(f"FAIL json {flow}: {e}")
        return
    problems = []
    if status != 1:
        problems.append(f"expected exit status 1, got {describe_status(status)}")
    if out:
        problems.append(f"expected empty stdout, got:\n{show(out)}")
    try:
        diagnostics = json.loads(err.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        problems.append(f"stderr is not JSON ({e}):\n{show(err)}")
        failures.append(f"FAIL json {flow}: " + "\n".join(problems))
        return
    if not isinstance(diagnostics, list):
        problems.append(f"expected a JSON array, got {type(diagnostics).__name__}")
        diagnostics = []
    got = []
    for d in diagnostics:
        if not isinstance(d, dict) or not {"code", "line", "column", "message",
                                           "severity"} <= set(d):
            problems.append(f"diagnostic lacks code/line/column/message/severity: {d}")
            continue
        if d.get("file") != flow:
            problems.append(f"diagnostic names file {d.get('file')!r}, expected {flow!r}")
        got.append((d["code"], d["line"], d["column"]))
    want = headlines_of_text(show(text_err))
    if not want:
        problems.append(f"the text form has no diagnostics:\n{show(text_err)}")
    if got != want:
        problems.append(f"JSON (code, line, column) {got} != text {want}")
    if problems:
        failures.append(f"FAIL json {flow}: " + "\n".join(problems))


def check_sample(path, failures):
    """A sample flow is valid: exit 0, empty stderr."""
    rel = os.path.relpath(path, SOURCE_DIR)
    try:
        status, _, err = run(["check", rel], SOURCE_DIR)
    except RunError as e:
        failures.append(f"FAIL sample {rel}: {e}")
        return
    if status != 0 or err:
        failures.append(f"FAIL sample {rel}: expected exit status 0 and empty stderr, got "
                        f"{describe_status(status)}:\n{show(err)}")


def main():
    if not os.access(FLOWC, os.X_OK):
        print(f"flowc not found at {FLOWC} (set FLOWC)")
        print("0 passed, 1 failed")
        return 1
    failures = []
    checked = 0
    cases = sorted(os.path.basename(p)[:-len(".flow")]
                   for p in glob.glob(os.path.join(ERRORS_DIR, "*.flow")))
    for name in cases:
        check_case(name, failures)
        checked += 1
    # A golden without its input is a leftover from a renamed or removed case.
    for golden in sorted(glob.glob(os.path.join(ERRORS_DIR, "*.stderr"))):
        name = os.path.basename(golden)[:-len(".stderr")]
        if name not in cases:
            failures.append(f"FAIL stale golden tests/errors/{name}.stderr has no {name}.flow")
            checked += 1
    for name in JSON_CASES:
        if name not in cases:
            failures.append(f"FAIL json {name}.flow: no such case")
        else:
            check_json(name, failures)
        checked += 1
    samples = sorted(glob.glob(os.path.join(SOURCE_DIR, "samples", "*.flow")))
    if not samples:
        failures.append("FAIL samples: no samples/*.flow found")
        checked += 1
    for path in samples:
        check_sample(path, failures)
        checked += 1
    if checked == 0 or not cases:
        failures.append("FAIL no error cases found in tests/errors")
    for failure in failures:
        print(failure)
        print()
    failed = len(failures)
    print(f"{max(checked - failed, 0)} passed, {failed} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
