#!/usr/bin/env python3
"""`flowc validate` on the YAML teams really keep: the upstream examples of Argo Workflows,
JobSet, Kueue and Kubeflow Trainer at release tags (../shared/conformance/realworld), each held
to what a cluster does with it (realworld/EXPECT, established with the API server's own CRD
validation code and Argo's workflow/validate):

- a file EXPECT does not name passes: exit 0, no error (warnings allowed);
- a `refused` file fails: exit 1, with an error at the field path EXPECT names;
- a `warned` file passes: exit 0, with a warning at that path.

Files are checked with --allow-unknown-kinds, for the kinds of projects flowc does not bundle
(Ray, Tekton, kind's Cluster ...); but no document of a bundled family (argoproj.io,
jobset.x-k8s.io, kueue.x-k8s.io, trainer.kubeflow.org, the Kubernetes API groups) may lack a
schema, which a run without that flag shows (E072 names the apiVersion and kind).

Without the corpus beside the repository this test is skipped: it prints why and exits 77."""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flowc_testlib as t  # noqa: E402

SKIP = 77
REALWORLD = os.path.join(t.CONFORMANCE_DIR, "realworld")
# "FILE:LINE:COL: error: Kind/name: PATH: message [E0xx]" (no PATH for the document itself).
DIAGNOSTIC = re.compile(r"^(?P<file>.*?):\d+:\d+: (?P<severity>error|warning): (?P<ident>\S+): "
                        r"(?P<rest>.*) \[(?P<code>[EW]\d+)\]$")
PATH = re.compile(r'^((?:[A-Za-z0-9_$/-]+|\[\d+\]|\["(?:[^"\\]|\\.)*"\]|\.)+): ')
NO_SCHEMA = re.compile(r"no schema for apiVersion (?P<api>\S+), kind (?P<kind>\S+)$")
BUNDLED_GROUPS = {"argoproj.io", "jobset.x-k8s.io", "kueue.x-k8s.io", "trainer.kubeflow.org"}
# The Kubernetes API groups (kubectl api-resources on a 1.33 to 1.36 cluster): other projects'
# groups under k8s.io, such as sparkoperator.k8s.io, are not among them.
KUBERNETES_GROUPS = {"", "apps", "batch", "autoscaling", "policy"} | {
    g + ".k8s.io" for g in (
        "admissionregistration", "apiextensions", "apiregistration", "authentication",
        "authorization", "certificates", "coordination", "discovery", "events",
        "flowcontrol.apiserver", "internal.apiserver", "networking", "node",
        "rbac.authorization", "resource", "scheduling", "storage", "storagemigration")}


def bundled_family(api_version):
    """Whether flowc bundles the group of `api_version`: the four projects' groups and the
    Kubernetes API groups."""
    group = api_version.rsplit("/", 1)[0] if "/" in api_version else ""
    return group in BUNDLED_GROUPS or group in KUBERNETES_GROUPS


def findings(stderr):
    """[(severity, path, line)] of flowc's diagnostics; path "" for the document itself."""
    out = []
    for line in stderr.splitlines():
        m = DIAGNOSTIC.match(line)
        if not m:
            continue
        p = PATH.match(m.group("rest"))
        out.append((m.group("severity"), p.group(1) if p else "", line))
    return out


def read_expect():
    expected = {}
    with open(os.path.join(REALWORLD, "EXPECT"), encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            path, verdict, field, _why = line.rstrip("\n").split("\t", 3)
            expected[path] = (verdict, field)
    return expected


def main():
    if not os.path.isdir(REALWORLD):
        print(f"test_realworld: SKIPPED: the real-world corpus is not at {REALWORLD} "
              "(../shared/conformance/realworld beside the repository)")
        sys.exit(SKIP)
    expect = t.Expectations()
    expected = read_expect()
    files = sorted(os.path.relpath(p, REALWORLD)
                   for p in glob.glob(os.path.join(REALWORLD, "**", "*.y*ml"), recursive=True))
    expect("files found", len(files) > 300, str(len(files)))
    for name in sorted(set(expected) - set(files)):
        expect(f"EXPECT names {name}, which exists", False)
    for name in files:
        path = os.path.join(REALWORLD, name)
        result = t.run_flowc("validate", "--allow-unknown-kinds", path)
        found = findings(result.stderr)
        errors = [f for f in found if f[0] == "error"]
        output = result.stdout + result.stderr
        verdict, field = expected.get(name, ("accepted", ""))
        if verdict == "accepted":
            expect(f"{name} passes", result.returncode == 0 and not errors, output)
        elif verdict == "refused":
            expect(f"{name} is refused", result.returncode == 1, output)
            expect(f"{name} has an error at {field}", any(f[1] == field for f in errors), output)
        elif verdict == "warned":
            expect(f"{name} passes with a warning", result.returncode == 0 and not errors, output)
            expect(f"{name} has a warning at {field}",
                   any(f[0] == "warning" and f[1] == field for f in found), output)
        else:
            expect(f"EXPECT's verdict for {name} is known", False, verdict)

    # Every document of a bundled family has a schema: without --allow-unknown-kinds, the only
    # "no schema" errors are of other projects' kinds.
    result = t.run_flowc("validate", *[os.path.join(REALWORLD, f) for f in files])
    unknown = set()
    for line in result.stderr.splitlines():
        m = DIAGNOSTIC.match(line)
        if m and m.group("code") == "E072":
            kind = NO_SCHEMA.search(m.group("rest"))
            unknown.add((kind.group("api"), kind.group("kind")) if kind else (m.group("rest"), ""))
    expect("some kinds of other projects are met", len(unknown) > 0, result.stderr[-2000:])
    for api, kind in sorted(unknown):
        expect(f"{api} {kind} is of a family flowc does not bundle", not bundled_family(api))
    t.finish("test_realworld", expect.failures, expect.checked)


if __name__ == "__main__":
    main()
