#!/usr/bin/env python3
"""`flowc validate` end to end: the whole output of each case in tests/validate/ against its
golden file (tests/validate/NAME.out: exit status, stdout, stderr), then the command line's
behaviours (stdin, exit statuses, --argo-version, --schemas, --allow-unknown-kinds, --format
sarif), and every YAML golden file of the compiler, which must pass."""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flowc_testlib as t  # noqa: E402

CASES = os.path.join("tests", "validate")


def render(result):
    """One golden text for a run: its exit status, stdout and stderr."""
    return (f"exit: {result.returncode}\n--- stdout\n{result.stdout}--- stderr\n{result.stderr}")


# Each case: (golden name, flowc validate arguments). Paths are relative to the source dir, so
# the diagnostics name them the same everywhere.
GOLDEN_CASES = [
    ("unknown_field", ["unknown_field.yaml"]),
    ("wrong_types", ["wrong_types.yaml"]),
    ("duplicate_key", ["duplicate_key.yaml"]),
    ("yaml_syntax", ["yaml_syntax.yaml"]),
    ("empty", ["empty.yaml"]),
    ("stray_comma", ["stray_comma.yaml"]),
    ("only_comments", ["only_comments.yaml"]),
    ("not_mapping", ["not_mapping.yaml"]),
    ("unknown_kind", ["unknown_kind.yaml"]),
    ("yaml11_scalars", ["yaml11_scalars.yaml"]),
    ("cel_rule", ["cel_rule.yaml"]),
    ("kueue", ["kueue.yaml"]),
    ("argo_inline", ["argo_inline.yaml"]),
    ("odd_keys", ["odd_keys.yaml"]),
    ("argo_inline_v3", ["--argo-version", "3.7", "argo_inline.yaml"]),
    # What Argo sets itself, the same at both versions.
    ("argo_sets", ["argo_sets.yaml"]),
    ("argo_sets_v3", ["--argo-version", "3.7", "argo_sets.yaml"]),
    # Files are checked in parallel; the diagnostics still come in the order the files are given.
    ("file_order", ["wrong_types.yaml", "valid.yaml", "unknown_field.yaml", "cel_rule.yaml",
                    "duplicate_key.yaml", "kueue.yaml"]),
    ("list", ["list.yaml"]),
    ("valid", ["valid.yaml"]),
    ("non_utf8", ["non_utf8.yaml"]),
    ("missing_file", ["no_such_file.yaml", "valid.yaml"]),
    ("cron_v4", ["cron_v3.yaml"]),
    ("cron_v3", ["--argo-version", "3.7", "cron_v3.yaml"]),
    ("custom_resource_unknown", ["custom_resource.yaml"]),
    ("custom_resource_allowed", ["--allow-unknown-kinds", "custom_resource.yaml", "valid.yaml"]),
    ("custom_resource_schemas", ["--schemas", "tests/validate/schemas_extra",
                                 "custom_resource.yaml"]),
    ("custom_cluster_scoped", ["--schemas", "tests/validate/schemas_extra",
                               "custom_cluster_scoped.yaml"]),
    ("custom_rules", ["--schemas", "tests/validate/schemas_rules", "custom_rules.yaml"]),
    ("schemas_not_crd", ["--schemas", "tests/validate/schemas_not_crd", "valid.yaml"]),
    ("schemas_missing_dir", ["--schemas", "tests/validate/no_such_dir", "valid.yaml"]),
    # Each family's version is chosen: Kubernetes 1.33 has no resource.k8s.io/v1, 1.34 has.
    ("dra_k8s133", ["--kubernetes-version", "1.33", "dra_v1.yaml"]),
    ("dra_k8s133_allowed", ["--kubernetes-version", "1.33", "--allow-unknown-kinds",
                            "dra_v1.yaml"]),
    ("dra_k8s134", ["--kubernetes-version", "1.34", "dra_v1.yaml"]),
    ("kueue_v1beta2", ["kueue_v1beta2.yaml"]),
    ("cluster_scoped_namespace", ["cluster_scoped_namespace.yaml"]),
    ("argo_kinds", ["argo_kinds.yaml"]),
    ("argo_kinds_v3", ["--argo-version", "3.7", "argo_kinds.yaml"]),
    ("jobset_release", ["jobset_versions.yaml"]),
    ("jobset_main", ["--jobset-version", "0.13.0-devel-43-g08dfbdfd", "jobset_versions.yaml"]),
    ("list_bundled", ["--list"]),
]


def case_args(args):
    """Input file names are relative to tests/validate; options pass as they are."""
    out = []
    for a in args:
        out.append(os.path.join(CASES, a) if a.endswith(".yaml") else a)
    return out


def main():
    expect = t.Expectations()
    for name, args in GOLDEN_CASES:
        expect.checked += 1
        result = t.run_flowc("validate", *case_args(args))
        t.check_golden(os.path.join(CASES, name + ".out"), render(result), expect.failures)

    # Exit statuses: 0 all valid, 1 any invalid, 2 a usage error.
    valid = os.path.join(CASES, "valid.yaml")
    invalid = os.path.join(CASES, "wrong_types.yaml")
    expect("valid exits 0", t.run_flowc("validate", valid).returncode == 0)
    expect("invalid exits 1", t.run_flowc("validate", valid, invalid).returncode == 1)
    usage = t.run_flowc("validate")
    expect("no file is a usage error", usage.returncode == 2, usage.stderr)
    usage = t.run_flowc("validate", "--argo-version", "3.6", valid)
    expect("an unknown --argo-version is a usage error", usage.returncode == 2, usage.stderr)
    for flag, value in [("--kubernetes-version", "1.32"), ("--jobset-version", "0.11.0"),
                        ("--kueue-version", "0.11"), ("--trainer-version", "2.2")]:
        usage = t.run_flowc("validate", flag, value, valid)
        expect(f"{flag} {value} (not bundled) is a usage error", usage.returncode == 2,
               usage.stderr)
    for flag, value in [("--kubernetes-version", "v1.35"), ("--jobset-version", "v0.12.0"),
                        ("--kueue-version", "0.19"), ("--trainer-version", "2.3.0")]:
        ok = t.run_flowc("validate", flag, value, valid)
        expect(f"{flag} {value} names a bundled version", ok.returncode == 0, ok.stderr)
    usage = t.run_flowc("validate", "--format", "xml", valid)
    expect("an unknown --format is a usage error", usage.returncode == 2, usage.stderr)

    # '-' reads stdin, and names it <stdin>.
    with open(os.path.join(t.SOURCE_DIR, invalid), encoding="utf-8") as f:
        text = f.read()
    result = t.run_flowc("validate", "-", input=text)
    expect("stdin is read", result.returncode == 1 and "<stdin>:8:7: error: JobSet/wrong-types"
           in result.stderr, result.stderr)
    expect("stdin summary", result.stdout == "0 passed, 2 failed\n", result.stdout)
    # Files are read by parallel workers, but standard input once, in order: a second '-'
    # finds it empty, every time.
    with open(os.path.join(t.SOURCE_DIR, valid), encoding="utf-8") as f:
        valid_text = f.read()
    for attempt in range(5):
        result = t.run_flowc("validate", "-", valid, "-", input=valid_text)
        expect(f"stdin twice (run {attempt + 1}): the second is empty",
               result.stderr.startswith("<stdin>:1:1: error: no YAML documents found [E071]")
               and result.stderr.count("error:") == 1, result.stderr)

    # --format sarif: one SARIF log on stderr, a result per problem at its line.
    result = t.run_flowc("validate", "--format", "sarif", os.path.join(CASES, "unknown_field.yaml"))
    try:
        sarif = json.loads(result.stderr)
        results = sarif["runs"][0]["results"]
        located = sorted((r["locations"][0]["physicalLocation"]["region"]["startLine"],
                          r["ruleId"], r["message"]["text"]) for r in results)
        expect("sarif results", located == [
            (7, "E073", 'WorkflowTemplate/nightly-train: spec.entrypiont: unknown field '
                        '"entrypiont"\nhelp: did you mean \'entrypoint\'?'),
            (17, "E073", 'WorkflowTemplate/nightly-train: spec.templates[1].container.resource: '
                         'unknown field "resource"\nhelp: did you mean \'resources\'?'),
            (19, "E073", 'WorkflowTemplate/nightly-train: spec.templates[1].container.'
                         'tolerations: unknown field "tolerations"'),
        ], json.dumps(located, indent=1))
        expect("sarif version", sarif["version"] == "2.1.0")
        expect("sarif summary on stdout", result.stdout == "0 passed, 1 failed\n", result.stdout)
    except (ValueError, KeyError, IndexError) as e:
        expect("sarif is JSON", False, f"{e}: {result.stderr}")

    # A user CRD replaces a bundled kind: a JobSet CRD with one field only.
    with tempfile.TemporaryDirectory() as tmp:
        crd = {
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "jobsets.jobset.x-k8s.io"},
            "spec": {"group": "jobset.x-k8s.io", "names": {"kind": "JobSet", "plural": "jobsets"},
                     "scope": "Namespaced", "versions": [{
                         "name": "v1alpha2", "served": True, "storage": True,
                         "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                             "spec": {"type": "object", "properties": {
                                 "replicatedJobs": {"type": "array", "items": {
                                     "type": "object",
                                     "x-kubernetes-preserve-unknown-fields": True}}}}}}}}]}}
        # `kubectl get crd -o yaml` writes a List of CRDs: JSON is YAML too.
        with open(os.path.join(tmp, "crds.json"), "w", encoding="utf-8") as f:
            json.dump({"apiVersion": "v1", "kind": "List", "items": [crd]}, f)
        jobset = ("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata:\n  name: j\n"
                  "spec:\n  replicatedJobs:\n    - name: w\n      replicas: two\n")
        bundled = t.run_flowc("validate", "-", input=jobset)
        replaced = t.run_flowc("validate", "--schemas", tmp, "-", input=jobset)
        expect("bundled JobSet rejects replicas: two", bundled.returncode == 1, bundled.stderr)
        expect("--schemas replaces the bundled JobSet", replaced.returncode == 0,
               replaced.stdout + replaced.stderr)

    # Every YAML golden file of the compiler is valid (Argo's for the version it was written
    # for: *.argo37.yaml for 3.7).
    goldens = sorted(glob.glob(os.path.join(t.SOURCE_DIR, "tests", "golden", "**", "*.yaml"),
                               recursive=True))
    expect("goldens found", len(goldens) > 30, str(len(goldens)))
    for path in goldens:
        version = "3.7" if path.endswith(".argo37.yaml") else "4.1"
        ok, out = t.validate([path], "--argo-version", version)
        expect(f"golden {os.path.relpath(path, t.SOURCE_DIR)} is valid", ok, out)

    t.finish("test_validate", expect.failures, expect.checked)


if __name__ == "__main__":
    main()
