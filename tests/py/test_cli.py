"""End-to-end tests of the flowc command line: exit codes, files, stdin,
--check, several inputs, diagnostics formats, graph output.

Runs the real binary (env FLOWC) and asserts exact outputs.
"""
import json
import os
import shutil
import subprocess
import tempfile

import flowc_testlib as lib

expect = lib.Expectations()
failures = expect.failures


BAD = "flow broken {\n  step start { run \"a\" next nowhere }\n  step end { run \"b\" }\n}\n"


def main():
    sample = "samples/linear_etl.flow"
    tmp = tempfile.mkdtemp(prefix="flowc-cli-")
    try:
        r = lib.run_flowc("--version")
        expect("version", r.returncode == 0 and r.stdout.startswith("flowc "), r.stdout)

        r = lib.run_flowc("--help")
        expect("help", r.returncode == 0 and "compile" in r.stdout and "graph" in r.stdout, r.stdout)

        # --list-objects: the objects beside the pods, as `kubectl get -o name` spells them,
        # for every target alike, and nothing else; a flow without any prints nothing.
        objects = lib.ir_of("samples/code_project/code_project.flow")["objects"] + lib.ir_of(
            "samples/neuron_connected_devices.flow")["objects"] + lib.ir_of(
            "samples/trainjob_neuron_gang.flow")["objects"]
        spelled = {"ConfigMap": "configmap", "TrainingRuntime":
                   "trainingruntime.trainer.kubeflow.org", "ResourceClaimTemplate":
                   "resourceclaimtemplate.resource.k8s.io"}
        want = "".join(f"{spelled[o['kind']]}/{o['name']}\n" for o in objects)
        expect("list-objects names three kinds", {o["kind"] for o in objects} == set(spelled),
               objects)
        for target in ("ir", "argo", "airflow"):
            r = lib.run_flowc("compile", "samples/code_project/code_project.flow",
                              "samples/neuron_connected_devices.flow", "samples/trainjob_neuron_gang.flow",
                              "--target", target, "--list-objects")
            expect(f"list-objects ({target})", r.returncode == 0 and r.stdout == want,
                   f"{r.returncode} {r.stdout!r} {r.stderr}")
        r = lib.run_flowc("compile", sample, "--target", "argo", "--list-objects")
        expect("list-objects of a flow without objects", r.returncode == 0 and r.stdout == "",
               f"{r.returncode} {r.stdout!r}")
        for extra in (["--check"], ["-o", os.path.join(tmp, "x.yaml")]):
            r = lib.run_flowc("compile", sample, "--target", "argo", "--list-objects", *extra)
            expect(f"list-objects with {extra[0]} is a usage error",
                   r.returncode == 2 and "excludes" in r.stderr and r.stdout == "",
                   f"{r.returncode} {r.stderr}")
        r = lib.run_flowc("compile", "-", "--target", "argo", "--list-objects", input=BAD)
        expect("list-objects of a broken flow: its errors, no list",
               r.returncode == 1 and r.stdout == "" and "error" in r.stderr,
               f"{r.returncode} {r.stdout!r}")

        r = lib.run_flowc("compile", sample, "--target", "yaml")
        expect("unknown target is a usage error", r.returncode == 2, f"{r.returncode} {r.stderr}")
        expect("unknown target names the choices", "ir" in r.stderr and "argo" in r.stderr, r.stderr)

        r = lib.run_flowc("frobnicate")
        expect("unknown command is a usage error", r.returncode == 2, str(r.returncode))

        r = lib.run_flowc("check", os.path.join(tmp, "missing.flow"))
        expect("missing input is an I/O error", r.returncode == 3, f"{r.returncode} {r.stderr}")
        expect("missing input says why",
               r.stderr == f"flowc: error: cannot read '{tmp}/missing.flow': No such file or directory\n",
               r.stderr)

        # A failed compile never creates nor truncates an output file.
        bad = os.path.join(tmp, "broken.flow")
        with open(bad, "w") as f:
            f.write(BAD)
        out = os.path.join(tmp, "out.json")
        r = lib.run_flowc("compile", bad, "--target", "ir", "-o", out)
        expect("failed compile exits 1", r.returncode == 1, str(r.returncode))
        expect("failed compile writes nothing", not os.path.exists(out), "file exists")
        with open(out, "w") as f:
            f.write("previous\n")
        lib.run_flowc("compile", bad, "--target", "ir", "-o", out)
        with open(out) as f:
            expect("failed compile keeps the old file", f.read() == "previous\n", "changed")
        expect("no temporary files are left", sorted(os.listdir(tmp)) == ["broken.flow", "out.json"],
               str(os.listdir(tmp)))

        # -o writes the same bytes as stdout.
        r = lib.run_flowc("compile", sample, "--target", "ir", "-o", out)
        with open(out) as f:
            written = f.read()
        expect("-o writes the IR", r.returncode == 0 and written == lib.compile_flow(sample, "ir"),
               r.stderr)

        # --check: equal, different, missing; never writes.
        r = lib.run_flowc("compile", sample, "--target", "ir", "-o", out, "--check")
        expect("--check on an up-to-date file", r.returncode == 0 and r.stdout == "", r.stdout)
        with open(out, "w") as f:
            f.write(written.replace('"linear_etl"', '"stale"', 1))
        r = lib.run_flowc("compile", sample, "--target", "ir", "-o", out, "--check")
        expect("--check on a stale file exits 1", r.returncode == 1, str(r.returncode))
        expect("--check prints a unified diff",
               f"--- {out}\n+++ {out} (flowc compile --target ir)\n@@ -1,5 +1,5 @@\n {{\n-  \"flow\": \"stale\",\n+  \"flow\": \"linear_etl\",\n"
               in r.stdout, r.stdout[:400])
        with open(out) as f:
            expect("--check never writes", '"stale"' in f.read(), "file was rewritten")

        # The backends write as they render, into a spool that the driver commits only once the
        # compile has succeeded: an error Argo's renderer finds late (a literal template tag)
        # writes nothing, to a file or to stdout.
        tagged = os.path.join(tmp, "tagged.flow")
        with open(tagged, "w") as f:
            f.write('flow tagged {\n  step start { run "echo {{ workflow.name }}" next end }\n'
                    '  step end { run "b" }\n}\n')
        tagged_out = os.path.join(tmp, "tagged.yaml")
        r = lib.run_flowc("compile", tagged, "--target", "argo", "-o", tagged_out)
        expect("a late error exits 1", r.returncode == 1 and "[E050]" in r.stderr, r.stderr)
        expect("a late error writes no file", not os.path.exists(tagged_out), "file exists")
        r = lib.run_flowc("compile", tagged, "--target", "argo")
        expect("a late error prints nothing", r.returncode == 1 and r.stdout == "", r.stdout[:200])
        os.remove(tagged)
        expect("no temporary files are left after a late error",
               sorted(os.listdir(tmp)) == ["broken.flow", "out.json"], str(os.listdir(tmp)))

        # Output larger than the spool keeps in memory (8 MiB) goes through a temporary file:
        # the same bytes on stdout as in -o's file. A 10,000-step JobSet is one 12 MB document,
        # which draws W001 after it is written: with --werror it is not written at all.
        big = os.path.join(tmp, "big.flow")
        with open(big, "w") as f:
            f.write(subprocess.run(["/usr/bin/python3", os.path.join(lib.SOURCE_DIR, "bench",
                                    "gen_flow.py"), "10000", "--jobset"],
                                   capture_output=True, text=True, check=True).stdout)
        big_out = os.path.join(tmp, "big.yaml")
        r = lib.run_flowc("compile", big, "--target", "jobset", "-o", big_out)
        expect("a large flow compiles to a file", r.returncode == 0 and "[W001]" in r.stderr,
               r.stderr[:300])
        with open(big_out) as f:
            big_text = f.read()
        r = lib.run_flowc("compile", big, "--target", "jobset")
        expect("a large flow on stdout is the file's text",
               r.returncode == 0 and len(big_text) > 8 << 20 and r.stdout == big_text,
               f"{len(r.stdout)} vs {len(big_text)}")
        # With nowhere to put it, output past the memory limit fails, and says where it looked.
        r = subprocess.run([lib.FLOWC, "compile", big, "--target", "jobset"], capture_output=True,
                           text=True, cwd=lib.SOURCE_DIR,
                           env=dict(os.environ, TMPDIR=os.path.join(tmp, "missing")))
        expect("no temporary folder for stdout",
               r.returncode == 3 and r.stdout == "" and r.stderr.endswith(
                   f"flowc: error: cannot write to stdout: no temporary file in '{tmp}/missing' "
                   "for output over 8 MiB: No such file or directory\n"), r.stderr[-300:])
        os.remove(big_out)
        r = lib.run_flowc("compile", big, "--target", "jobset", "--werror", "-o", big_out)
        expect("--werror drops a written output", r.returncode == 1 and
               "error: document 1 of the output is" in r.stderr and not os.path.exists(big_out),
               r.stderr[:300])
        r = lib.run_flowc("compile", big, "--target", "jobset", "--werror")
        expect("--werror prints nothing", r.returncode == 1 and r.stdout == "", r.stdout[:200])
        os.remove(big)
        expect("no temporary files are left after a large flow",
               sorted(os.listdir(tmp)) == ["broken.flow", "out.json"], str(os.listdir(tmp)))

        # stdin.
        with open(os.path.join(lib.SOURCE_DIR, sample)) as f:
            text = f.read()
        r = lib.run_flowc("compile", "-", "--target", "ir", input=text)
        expect("stdin compiles", r.returncode == 0 and r.stdout == written, r.stderr)
        r = lib.run_flowc("check", "-", input=BAD)
        expect("stdin diagnostics are named <stdin>",
               r.stderr.startswith("<stdin>:2:29: error: 'next' names unknown step 'nowhere' [E014]"),
               r.stderr)

        # Several inputs into a directory, one file per flow, named after it.
        outdir = os.path.join(tmp, "outdir")
        os.mkdir(outdir)
        r = lib.run_flowc("compile", "samples/linear_etl.flow", "samples/branch_eval.flow",
                          "--target", "ir", "-o", outdir)
        expect("several inputs compile", r.returncode == 0, r.stderr)
        expect("one output per flow", sorted(os.listdir(outdir)) == ["branch_eval.json", "linear_etl.json"],
               str(os.listdir(outdir)))
        r = lib.run_flowc("compile", "samples/linear_etl.flow", "samples/branch_eval.flow",
                          "--target", "ir", "-o", outdir, "--check")
        expect("--check of a directory that is up to date", r.returncode == 0 and r.stdout == "",
               r.stdout + r.stderr)
        os.remove(os.path.join(outdir, "branch_eval.json"))
        r = lib.run_flowc("compile", "samples/linear_etl.flow", "samples/branch_eval.flow",
                          "--target", "ir", "-o", outdir, "--check")
        expect("--check of a directory reports the missing file",
               r.returncode == 1 and r.stdout.startswith("--- /dev/null\n+++ " + outdir + "/branch_eval.json"),
               r.stdout[:200])
        expect("--check of a directory writes nothing",
               sorted(os.listdir(outdir)) == ["linear_etl.json"], str(os.listdir(outdir)))
        r = lib.run_flowc("compile", "samples/linear_etl.flow", "samples/branch_eval.flow",
                          "--target", "ir")
        expect("several inputs need -o DIR", r.returncode == 2, str(r.returncode))

        # Several files, one broken: every error reported, status 1.
        r = lib.run_flowc("check", sample, bad)
        expect("check reports the broken file", r.returncode == 1 and "broken.flow:2:29" in r.stderr,
               r.stderr)

        # Machine-readable diagnostics.
        r = lib.run_flowc("check", bad, "--diagnostics-format", "json")
        try:
            diags = json.loads(r.stderr)
            expect("json diagnostics", diags[0]["code"] == "E014" and diags[0]["line"] == 2
                   and diags[0]["column"] == 29 and diags[0]["severity"] == "error", r.stderr)
        except ValueError:
            expect("json diagnostics parse", False, r.stderr)
        r = lib.run_flowc("check", bad, "--diagnostics-format", "sarif")
        try:
            sarif = json.loads(r.stderr)
            result = sarif["runs"][0]["results"][0]
            expect("sarif log", sarif["version"] == "2.1.0" and result["ruleId"] == "E014"
                   and result["level"] == "error"
                   and result["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 29},
                   r.stderr)
        except (ValueError, KeyError, IndexError):
            expect("sarif parses", False, r.stderr)

        # Graphs: a sample with the device plugin's accelerators, a foreach and a gang, and every
        # form of a @neuron request (its flow beside its goldens).
        for flow in ("samples/nightly_train.flow", "tests/golden/graph/neuron_requests.flow"):
            name = os.path.splitext(os.path.basename(flow))[0]
            for fmt in ("dot", "mermaid"):
                r = lib.run_flowc("graph", flow, "--format", fmt)
                expect(f"graph {name} {fmt}", r.returncode == 0, r.stderr)
                lib.check_golden(f"tests/golden/graph/{name}.{fmt}", r.stdout, failures)
    finally:
        shutil.rmtree(tmp)
    lib.finish("test_cli", failures, expect.checked)


if __name__ == "__main__":
    main()
