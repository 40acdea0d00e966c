"""Schema checks of flows over Argo's limits (issue 33): the outputs test_argo_split.py runs
through the model of Argo (chains at the limits, a long foreach body, a wide split, a part
that creates parts, and
bench/gen_flow.py's 201, 250, 1,000 and 10,000 steps), each as compiled for Argo 4.1 and 3.7,
pass the schema checks for that version (flowc_testlib.validate: every WorkflowTemplate, the
further ones with templates only and no entrypoint, and the CronWorkflow).

flowc validate needs nothing beside the repository. The conformance kit's second opinion on
the same flows is test_conformance.py's, which is skipped without the kit.
"""
import os
import subprocess
import sys

import flowc_testlib as t
import test_argo_split as split


def main():
    expect = t.Expectations()
    flows = [split.write(f"{name}.flow", split.chain_flow(name, steps))
             for steps, name in ((199, "limit_200_templates"), (200, "limit_201_templates"),
                                 (201, "limit_201_tasks"))]
    flows.append(split.write("long_body.flow", split.long_body_flow(250)))
    flows.append(split.write("wide_split.flow", split.wide_flow(250)))
    flows.append(split.write("nested_parts.flow", split.nested_flow(150, 200, 60)))
    for steps in (201, 250, 1000, 10000):
        text = subprocess.run([t.PYTHON, os.path.join(t.SOURCE_DIR, "bench", "gen_flow.py"),
                               str(steps), "--exact"], capture_output=True, text=True, check=True).stdout
        flows.append(split.write(f"bench_{steps}.flow", text))
    for version in ("4.1", "3.7"):
        outputs = []
        for path in flows:
            out = f"{path}.{version}.yaml"
            result = t.run_flowc("compile", path, "--target", "argo", "--argo-version", version,
                                 "-o", out)
            expect(f"{path} compiles for {version}", result.returncode == 0, result.stderr)
            outputs.append(out)
        ok, report = t.validate(outputs, "--argo-version", version)
        expect(f"validate --argo-version {version}", ok, report)
    t.finish("test_argo_split_schema", expect.failures, expect.checked)


if __name__ == "__main__":
    main()
