#!/usr/bin/env python3
"""`flowc validate` against the team's independent conformance kit (../shared/conformance),
where it is present: on every YAML golden file of the compiler and every file under the kit's
examples/, and on the outputs of flows past Argo's limits (bench/gen_flow.py's 201, 250, 1,000
and 10,000 steps, split into nested DAGs and further WorkflowTemplates, for Argo 4.1 and 3.7),
both must pass the same documents, and where the kit finds a problem flowc must report one at
the same document and path (and the other way round).

Without the kit beside the repository this test is skipped: it prints why and exits 77, which
tests/CMakeLists.txt gives ctest as the skip status."""
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flowc_testlib as t  # noqa: E402

SKIP = 77

# The kit: "FILE:docN: Kind/name: PATH: message (line L)"; PATH is "(root)" for the document.
KIT_LINE = re.compile(r"^(?P<file>.*?):doc(?P<doc>\d+): (?P<ident>\S+): (?P<path>\S+): ")
# flowc: "FILE:LINE:COL: error: Kind/name: PATH: message [E0xx]", or no PATH for the document.
FLOWC_LINE = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): error: (?P<ident>\S+): "
                        r"(?P<rest>.*) \[E\d+\]$")
FLOWC_PATH = re.compile(r'^((?:[A-Za-z0-9_$/-]+|\[\d+\]|\["(?:[^"\\]|\\.)*"\]|\.)+): ')


def kit_path(text):
    """The kit's path ("a.b[0][key.with.dots]") as a tuple of keys and indices."""
    if text == "(root)":
        return ()
    out = []
    for m in re.finditer(r"\[([^\]]*)\]|([^.\[\]]+)", text):
        if m.group(1) is not None:
            out.append(int(m.group(1)) if m.group(1).isdigit() else m.group(1))
        else:
            out.append(m.group(2))
    return tuple(out)


def flowc_path(text):
    """flowc's path (keys quoted as ["key"] where they hold '.', '[' or ']') as a tuple."""
    out = []
    for m in re.finditer(r'\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|([^.\[\]]+)', text):
        if m.group(1) is not None:
            out.append(int(m.group(1)))
        elif m.group(2) is not None:
            out.append(m.group(2).encode().decode("unicode_escape"))
        else:
            out.append(m.group(3))
    return tuple(out)


def doc_starts(path):
    """The first line of each document of a YAML file, by '---' separators, for mapping flowc's
    lines to the kit's document numbers."""
    starts, doc_open = [], False
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("---"):
                doc_open = False
                continue
            if not doc_open and line.strip() and not line.lstrip().startswith("#"):
                starts.append(number)
                doc_open = True
    return starts


def findings_of_kit(output):
    found = set()
    for line in output.splitlines():
        m = KIT_LINE.match(line)
        if m:
            found.add((os.path.abspath(m["file"]), int(m["doc"]), kit_path(m["path"])))
    return found


def findings_of_flowc(output):
    found = set()
    starts = {}
    for line in output.splitlines():
        m = FLOWC_LINE.match(line)
        if not m:
            continue
        path = os.path.abspath(m["file"])
        if path not in starts:
            starts[path] = doc_starts(path)
        doc = sum(1 for s in starts[path] if s <= int(m["line"]))
        p = FLOWC_PATH.match(m["rest"])
        found.add((path, doc, flowc_path(p.group(1)) if p else ()))
    return found


def compare(files, extra, expect):
    """Runs both on `files`; every disagreement is a failure naming the file, document, path."""
    kit_status, kit_out = t.conformance(files, *extra)
    ok, flowc_out = t.validate(files, *extra)
    label = " ".join(extra) or "default"
    expect(f"exit status ({label}): kit {kit_status}, flowc {0 if ok else 1}",
           (kit_status == 0) == ok, f"kit:\n{kit_out}\nflowc:\n{flowc_out}")
    kit, flowc = findings_of_kit(kit_out), findings_of_flowc(flowc_out)
    for f in sorted(kit - flowc, key=str):
        expect(f"flowc misses {os.path.relpath(f[0])} doc{f[1]} {f[2]}", False,
               f"kit:\n{kit_out}\nflowc:\n{flowc_out}")
    for f in sorted(flowc - kit, key=str):
        expect(f"the kit does not report {os.path.relpath(f[0])} doc{f[1]} {f[2]}", False,
               f"kit:\n{kit_out}\nflowc:\n{flowc_out}")
    expect(f"agreement ({label}): {len(kit)} findings", kit == flowc)


def main():
    if not os.path.exists(t.CONFORMANCE):
        print(f"test_conformance: SKIPPED: the conformance kit is not at {t.CONFORMANCE} "
              "(../shared/conformance beside the repository)")
        sys.exit(SKIP)
    expect = t.Expectations()
    goldens = sorted(glob.glob(os.path.join(t.SOURCE_DIR, "tests", "golden", "**", "*.yaml"),
                               recursive=True))
    expect("goldens found", len(goldens) > 30, str(len(goldens)))
    v37 = [g for g in goldens if g.endswith(".argo37.yaml")]
    v41 = [g for g in goldens if not g.endswith(".argo37.yaml")]
    compare(v41, ["--argo-version", "4.1"], expect)
    if v37:
        compare(v37, ["--argo-version", "3.7"], expect)
    examples = sorted(glob.glob(os.path.join(t.CONFORMANCE_DIR, "examples", "*.yaml")))
    expect("examples found", len(examples) > 5, str(len(examples)))
    for example in examples:
        # One call per example: an invalid one must fail on its own.
        compare([example], [], expect)
        if os.path.basename(example).startswith("invalid-"):
            ok, out = t.validate([example])
            expect(f"{os.path.basename(example)} fails", not ok, out)
        else:
            ok, out = t.validate([example])
            expect(f"{os.path.basename(example)} passes", ok, out)
    # Flows past Argo's limits (issue 33): the kit's second opinion on the split outputs, which
    # test_argo_split_schema.py checks with flowc validate alone.
    with tempfile.TemporaryDirectory(prefix="flowc-conformance-") as tmp:
        for version in ("4.1", "3.7"):
            outputs = []
            for steps in (201, 250, 1000, 10000):
                flow = os.path.join(tmp, f"bench_{steps}.flow")
                with open(flow, "w", encoding="utf-8") as f:
                    f.write(subprocess.run(
                        [t.PYTHON, os.path.join(t.SOURCE_DIR, "bench", "gen_flow.py"), str(steps),
                         "--exact"], capture_output=True, text=True, check=True).stdout)
                out = os.path.join(tmp, f"bench_{steps}.{version}.yaml")
                result = t.run_flowc("compile", flow, "--target", "argo", "--argo-version",
                                     version, "-o", out)
                expect(f"{steps} steps compile for Argo {version}", result.returncode == 0,
                       result.stderr)
                outputs.append(out)
            compare(outputs, ["--argo-version", version], expect)
    t.finish("test_conformance", expect.failures, expect.checked)


if __name__ == "__main__":
    main()
