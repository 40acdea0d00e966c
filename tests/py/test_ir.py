"""Golden IR for every sample and test flow, and the Neuron toleration rule.

For each samples/*.flow and tests/flows/*.flow, `flowc compile --target ir`
must equal tests/golden/ir/<name>.json. Every step whose pod requests
aws.amazon.com/neuron carries the Neuron toleration exactly once; no other
step carries it unless its own @kubernetes(tolerations=...) wrote it.
"""
import json
import os

import flowc_testlib as lib

NEURON = {"key": "aws.amazon.com/neuron", "operator": "Exists", "effect": "NoSchedule"}


def neuron_failures(path, flow_ir):
    failures = []
    for step in flow_ir["steps"]:
        spec = step["pod"]["spec"]
        limits = spec["containers"][0].get("resources", {}).get("limits", {})
        tolerations = spec.get("tolerations", [])
        count = sum(1 for t in tolerations if t.get("key") == NEURON["key"])
        where = f"{path}: step '{step['name']}'"
        # Devices of the device plugin (a limit) or of the Neuron DRA driver (a claim).
        if "aws.amazon.com/neuron" in limits or spec.get("resourceClaims"):
            if count != 1:
                failures.append(f"{where}: has Neuron devices and {count} Neuron tolerations")
            elif not any(t == NEURON or (t.get("key") == NEURON["key"] and t.get("operator") == "Exists"
                                         and t.get("effect") in (None, "NoSchedule"))
                         for t in tolerations):
                failures.append(f"{where}: its Neuron toleration does not tolerate NoSchedule")
        elif count != 0:
            failures.append(f"{where}: has no Neuron devices but {count} Neuron tolerations")
    return failures


def main():
    failures = []
    flows = lib.samples() + lib.test_flows()
    neuron_steps = 0
    for path in flows:
        text = lib.compile_flow(path, "ir")
        name = os.path.splitext(os.path.basename(path))[0]
        lib.check_golden(f"tests/golden/ir/{name}.json", text, failures)
        flow_ir = json.loads(text)
        failures += neuron_failures(path, flow_ir)
        neuron_steps += sum(1 for s in flow_ir["steps"]
                            if "aws.amazon.com/neuron" in
                            s["pod"]["spec"]["containers"][0].get("resources", {}).get("limits", {})
                            or s["pod"]["spec"].get("resourceClaims"))
    if neuron_steps == 0:
        failures.append("no sample has a Neuron step: the Neuron check checked nothing")
    lib.finish("test_ir", failures, len(flows))


if __name__ == "__main__":
    main()
