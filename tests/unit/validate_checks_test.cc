// Unit tests of the checks `flowc validate` makes beyond the schema
// (compiler/validate/checks), of Kubernetes objects: each rule on a document that passes it and
// one that breaks it, with the whole finding (path, message, help), and every golden file and
// valid conformance example passing them all. The Argo checks: validate_checks_argo_test.cc.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "validate_checks_util.h"

namespace flowc::validate {
namespace {

using testing::Check;
using testing::kDns1035;
using testing::kLabel;
using testing::kLabelValue;
using testing::kNamePart;
using testing::kSubdomain;
using testing::Lines;

const char* kPod = R"(apiVersion: v1
kind: Pod
metadata: {name: train, namespace: ml, labels: {app.kubernetes.io/name: train}}
spec:
  volumes: [{name: cache}]
  resourceClaims: [{name: neurons, resourceClaimTemplateName: trn}]
  containers:
  - name: main
    image: busybox
    ports: [{name: metrics, containerPort: 9090}]
    volumeMounts: [{name: cache, mountPath: /cache}]
    resources:
      requests: {cpu: 500m, memory: 1Gi, aws.amazon.com/neuron: "16", hugepages-2Mi: 1Gi}
      limits: {cpu: "1", memory: 1024Mi, aws.amazon.com/neuron: 16, hugepages-2Mi: 1Gi}
      claims: [{name: neurons}]
  nodeSelector: {node.kubernetes.io/instance-type: trn1.32xlarge}
  tolerations:
  - {key: aws.amazon.com/neuron, operator: Exists, effect: NoSchedule}
  - {key: dedicated, value: ml, effect: NoExecute, tolerationSeconds: 60}
)";

TEST_CASE("validate checks: a well-formed pod passes every rule") { CHECK(Check(kPod) == Lines{}); }

TEST_CASE("validate checks: object names per kind, generateName, namespace") {
  CHECK(Check("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Flowc_Config}\n") ==
        Lines{"metadata.name: Invalid value: \"Flowc_Config\": " + kSubdomain});
  // A Namespace's name is a label: a dot is refused that a ConfigMap's name may hold.
  CHECK(Check("apiVersion: v1\nkind: Namespace\nmetadata: {name: ml.team}\n") ==
        Lines{"metadata.name: Invalid value: \"ml.team\": " + kLabel});
  CHECK(Check("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ml.team}\n") == Lines{});
  // The trailing dash of a generateName stands for the random suffix.
  CHECK(Check("apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: run-}\n") == Lines{});
  CHECK(Check("apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: Run-}\n") ==
        Lines{"metadata.generateName: Invalid value: \"Run-\": " + kSubdomain});
  CHECK(Check("apiVersion: v1\nkind: ConfigMap\nmetadata: {labels: {a: b}}\n") ==
        Lines{"metadata.name: Required value: name or generateName is required"});
  // A List is no object of its own; the validator checks its items.
  CHECK(Check("apiVersion: v1\nkind: List\nitems: []\n") == Lines{});
  CHECK(Check("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ML}\n") ==
        Lines{"metadata.namespace: Invalid value: \"ML\": " + kLabel});
  // A cluster-scoped object's namespace is cleared by the API server, not refused: validate.cc
  // warns (W070), and its syntax is never checked.
  CHECK(Check("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
              "metadata: {name: neuron.aws.com, namespace: ML}\n") == Lines{});
}

TEST_CASE("validate checks: label keys and values, annotation keys, nested metadata") {
  // In the order of the keys, which nlohmann::json sorts.
  CHECK(Check(R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  labels: {flowc.dev/step: train step, -bad-key: x, a/b/c: x}
  annotations: {Example.COM/Note: fine, "/empty-prefix": x}
)") == Lines{"metadata.labels.-bad-key: Invalid value: \"-bad-key\": " + kNamePart,
             "metadata.labels.a/b/c: Invalid value: \"a/b/c\": a qualified name must consist of "
             "alphanumeric characters, '-', '_' or '.', and must start and end with an "
             "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
             "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS "
             "subdomain prefix and '/' (e.g. 'example.com/MyName')",
             "metadata.labels[\"flowc.dev/step\"]: Invalid value: \"train step\": " + kLabelValue,
             "metadata.annotations./empty-prefix: Invalid value: \"/empty-prefix\": prefix part "
             "must be non-empty"});
  // A pod template's labels, and an Argo template's, whose placeholders are left to run time.
  CHECK(Check(R"(apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec: {template: {metadata: {labels: {tier: "a b"}}, spec: {containers: [{name: c, image: x}]}}}
)") == Lines{"spec.template.metadata.labels.tier: Invalid value: \"a b\": " + kLabelValue});
  CHECK(Check(R"(apiVersion: argoproj.io/v1alpha1
kind: WorkflowTemplate
metadata: {name: w}
spec:
  templates:
  - name: t
    metadata: {labels: {step: "{{inputs.parameters.x}}", "{{k}}": v, ok: "x y"}}
    inputs: {parameters: [{name: x}]}
    suspend: {}
)") == Lines{"spec.templates[0].metadata.labels.ok: Invalid value: \"x y\": " + kLabelValue});
}

TEST_CASE("validate checks: container and volume names, mounts, ports") {
  CHECK(Check(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  volumes: [{name: Data}, {name: cache}]
  initContainers: [{name: main, image: x}]
  containers:
  - name: main
    image: x
    ports: [{containerPort: 70000, name: http--x}, {containerPort: 80, name: "8080"}]
    volumeMounts: [{name: cach, mountPath: /c}, {name: scratch, mountPath: /s}]
)") == Lines{"spec.volumes[0].name: Invalid value: \"Data\": " + kLabel,
             "spec.containers[0].name: Duplicate value: \"main\" [help: 'main' also names a "
             "container of initContainers]",
             "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 "
             "and 65535, inclusive",
             "spec.containers[0].ports[0].name: Invalid value: \"http--x\": must not contain "
             "consecutive hyphens",
             "spec.containers[0].ports[1].name: Invalid value: \"8080\": must contain at least one "
             "letter (a-z)",
             "spec.containers[0].volumeMounts[0].name: Not found: \"cach\" [help: did you mean "
             "'cache'?]",
             "spec.containers[0].volumeMounts[1].name: Not found: \"scratch\" [help: declare a "
             "volume named 'scratch' in the pod's volumes]"});
}

TEST_CASE("validate checks: extended resources are whole and requested as limited") {
  CHECK(Check(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: main
    image: x
    resources:
      requests: {aws.amazon.com/neuron: "2", example.com/fpga: "1", cpu: "4", gpu: 1, memory: 2Gi}
      limits: {aws.amazon.com/neuron: "1", vpc.amazonaws.com/efa: 500m, cpu: 2, memory: 2048Mi}
)") == Lines{"spec.containers[0].resources.limits[\"vpc.amazonaws.com/efa\"]: Invalid value: "
             "\"500m\": must be an integer [help: an extended resource counts whole devices]",
             "spec.containers[0].resources.requests.gpu: Invalid value: \"gpu\": must be a "
             "standard resource for containers [help: did you mean 'cpu'?]",
             "spec.containers[0].resources.requests[\"aws.amazon.com/neuron\"]: Invalid value: "
             "\"2\": must be equal to aws.amazon.com/neuron limit of 1 [help: a device cannot be "
             "shared: request and limit the same number]",
             "spec.containers[0].resources.requests.cpu: Invalid value: \"4\": must be less than "
             "or equal to cpu limit of 2",
             "spec.containers[0].resources.limits: Required value: Limit must be set for non "
             "overcommitable resources (example.com/fpga) [help: add example.com/fpga: \"1\" to "
             "limits, the same as the request]"});
  // Quantities compare exactly: 2Gi is 2048Mi, 0.5 is 500m; hugepages are not overcommitted.
  CHECK(Check(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: main
    image: x
    resources:
      requests: {cpu: 0.5, hugepages-1Gi: 2Gi, memory: sixteen}
      limits: {cpu: 500m, hugepages-1Gi: 1Gi}
)") == Lines{"spec.containers[0].resources.requests.memory: Invalid value: \"sixteen\": "
             "quantities must match the regular expression "
             "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' [help: write a quantity such as "
             "\"2\", \"500m\" or \"16Gi\"]",
             "spec.containers[0].resources.requests.hugepages-1Gi: Invalid value: \"2Gi\": must "
             "be equal to hugepages-1Gi limit of 1Gi [help: a device cannot be shared: request "
             "and limit the same number]"});
}

TEST_CASE("validate checks: resource claims and tolerations") {
  CHECK(Check(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  resourceClaims: [{name: gpus}, {name: gpus, resourceClaimName: a, resourceClaimTemplateName: b}]
  containers:
  - {name: main, image: x, resources: {claims: [{name: gpu}]}}
  tolerations:
  - {operator: Equal, value: x}
  - {key: k, operator: In}
  - {key: k, effect: NoRun, tolerationSeconds: 5}
  - {key: k, value: "bad value"}
  - {key: aws.amazon.com/neuron, operator: Exists, value: "true"}
)") == Lines{"spec.resourceClaims[0]: Invalid value: must specify one of: `resourceClaimName`, "
             "`resourceClaimTemplateName`",
             "spec.resourceClaims[1].name: Duplicate value: \"gpus\"",
             "spec.resourceClaims[1]: Invalid value: at most one of `resourceClaimName` or "
             "`resourceClaimTemplateName` may be specified",
             "spec.containers[0].resources.claims[0].name: Not found: \"gpu\": must be one of the "
             "names in pod.spec.resourceClaims: gpus [help: did you mean 'gpus'?]",
             "spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists "
             "when `key` is empty, which means \"match all values and all keys\"",
             "spec.tolerations[1].operator: Unsupported value: \"In\": supported values: "
             "\"Equal\", \"Exists\"",
             "spec.tolerations[2].effect: Invalid value: \"NoRun\": effect must be 'NoExecute' "
             "when `tolerationSeconds` is set",
             "spec.tolerations[2].effect: Unsupported value: \"NoRun\": supported values: "
             "\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
             "spec.tolerations[3].value: Invalid value: \"bad value\": " + kLabelValue,
             "spec.tolerations[4].operator: Invalid value: \"true\": value must be empty when "
             "`operator` is 'Exists' [help: remove the value, or use operator Equal]"});
}

TEST_CASE("validate checks: JobSet generated names, dependsOn and job references") {
  CHECK(Check(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: pretrain}
spec:
  network: {subdomain: pretrain}
  successPolicy: {operator: All, targetReplicatedJobs: [workers]}
  volumeClaimPolicies: [{templates: [{metadata: {name: ckpt}}]}]
  replicatedJobs:
  - name: launcher
    template: {spec: {template: {spec: {containers: [{name: l, image: x, volumeMounts: [{name: ckpt, mountPath: /c}]}]}}}}
  - name: workers
    replicas: 4
    dependsOn: [{name: launcher, status: Ready}]
    template: {spec: {completions: 16, template: {spec: {containers: [{name: w, image: x}]}}}}
)") == Lines{});
  CHECK(Check(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: a-very-long-jobset-name-for-pretraining-runs}
spec:
  network: {subdomain: 1sub}
  successPolicy: {operator: All, targetReplicatedJobs: [wrokers]}
  failurePolicy: {rules: [{action: FailJobSet, targetReplicatedJobs: [driver]}]}
  coordinator: {replicatedJob: launcher}
  replicatedJobs:
  - name: launcher
    dependsOn: [{name: workers, status: Ready}]
    template: {spec: {template: {spec: {containers: [{name: l, image: x}]}}}}
  - name: workers
    replicas: 16
    groupName: G
    template: {spec: {completions: 128, template: {spec: {containers: [{name: w, image: x}]}}}}
  - name: eval
    dependsOn: [{name: later, status: Complete}]
    template: {spec: {template: {spec: {containers: [{name: e, image: x}]}}}}
  - name: later
    template: {spec: {template: {spec: {containers: [{name: e, image: x}]}}}}
)") == Lines{"spec.replicatedJobs[0].dependsOn: Invalid value: dependsOn can't be set for the "
             "first ReplicatedJob [help: the first replicated job starts first: move dependsOn "
             "to a later one]",
             "spec.replicatedJobs[1].name: Invalid value: "
             "\"a-very-long-jobset-name-for-pretraining-runs-workers-15-127-abcde\": generated "
             "Pod name must be no more than 63 characters [help: shorten the JobSet's name or "
             "the replicated job's name]",
             "spec.replicatedJobs[1].groupName: Invalid value: \"G\": " + kDns1035,
             "spec.replicatedJobs[2].dependsOn[0].name: Invalid value: \"later\": replicatedJob "
             "\"eval\" cannot depend on replicatedJob \"later\": it must be an earlier "
             "replicatedJob",
             "spec.successPolicy.targetReplicatedJobs[0]: Not found: \"wrokers\": invalid "
             "replicatedJob name 'wrokers' does not appear in .spec.replicatedJobs [help: did "
             "you mean 'workers'?]",
             "spec.failurePolicy.rules[0].targetReplicatedJobs[0]: Not found: \"driver\": "
             "invalid replicatedJob name 'driver' does not appear in .spec.replicatedJobs",
             "spec.network.subdomain: Invalid value: \"1sub\": " + kDns1035});
}

TEST_CASE("validate checks: a TrainJob's generated names against its runtime in the stream") {
  const std::string runtime = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch-distributed}
spec:
  template:
    spec:
      replicatedJobs:
      - name: node
        template: {spec: {template: {spec: {containers: [{name: node, image: x}]}}}}
---
)";
  CHECK(Check(runtime + R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: finetune}
spec: {runtimeRef: {name: torch-distributed}, trainer: {numNodes: 4}}
)") == Lines{});
  CHECK(Check(runtime + R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: fine-tune-a-seven-billion-parameter-model-on-trainium-x}
spec:
  runtimeRef: {name: torch-distributed}
  trainer:
    numNodes: 4
    resourcesPerNode: {requests: {aws.amazon.com/neuron: 8}, limits: {aws.amazon.com/neuron: 16}}
)") == Lines{"doc2: spec.trainer.resourcesPerNode.requests[\"aws.amazon.com/neuron\"]: Invalid "
             "value: 8: must be equal to aws.amazon.com/neuron limit of 16 [help: a device "
             "cannot be shared: request and limit the same number]",
             "stream doc2: metadata.name: Invalid value: "
             "\"fine-tune-a-seven-billion-parameter-model-on-trainium-x-node-0-3-abcde\": "
             "generated Pod name must be no more than 63 characters [help: shorten the "
             "TrainJob's name or the replicated job's name]"});
}

TEST_CASE("validate checks: DRA requests, device classes and request references") {
  CHECK(Check(R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: trn}
spec:
  spec:
    devices:
      requests:
      - {name: neurons, exactly: {deviceClassName: neuron.aws.com, allocationMode: ExactCount, count: 16}}
      - name: nic
        firstAvailable: [{name: efa, deviceClassName: efa.aws.com, allocationMode: All}]
      constraints: [{requests: [neurons, nic/efa], matchAttribute: resource.kubernetes.io/pcieRoot}]
)") == Lines{});
  CHECK(Check(R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - {name: big, deviceClassName: Big_Class, allocationMode: All, count: 2}
      - {name: small, deviceClassName: small.example.com, count: 0, selectors: [{cel: {expression: " "}}]}
      exactly: {deviceClassName: x.example.com}
    - {name: Nic_2, exactly: {allocationMode: Some}}
    - {name: beta, deviceClassName: x.example.com}
    constraints: [{requests: [gpu/big, gpu/smal]}]
    config: [{requests: [nics]}]
)") == Lines{"spec.devices.requests[0]: Invalid value: exactly one of `exactly` or "
             "`firstAvailable` is required, but multiple fields are set",
             "spec.devices.requests[0].firstAvailable[0].deviceClassName: Invalid value: "
             "\"Big_Class\": " +
                 kSubdomain,
             "spec.devices.requests[0].firstAvailable[0].count: Invalid value: 2: must not be "
             "specified when allocationMode is 'All'",
             "spec.devices.requests[0].firstAvailable[1].count: Invalid value: 0: must be greater "
             "than zero",
             "spec.devices.requests[0].firstAvailable[1].selectors[0].cel.expression: Required "
             "value",
             "spec.devices.requests[1].name: Invalid value: \"Nic_2\": " + kLabel,
             "spec.devices.requests[1].exactly.deviceClassName: Required value [help: name the "
             "DeviceClass to allocate from]",
             "spec.devices.requests[1].exactly.allocationMode: Unsupported value: \"Some\": "
             "supported values: \"All\", \"ExactCount\"",
             // The v1beta1 shape in a v1 object (the schema also refuses deviceClassName here).
             "spec.devices.requests[2]: Required value: exactly one of `exactly` or "
             "`firstAvailable` is required [help: put deviceClassName, allocationMode and count "
             "under `exactly:`]",
             "spec.devices.constraints[0].requests[1]: Invalid value: \"gpu/smal\": must be the "
             "name of a request in the claim or the name of a request and a subrequest separated "
             "by '/' [help: did you mean 'gpu/small'?]",
             "spec.devices.config[0].requests[0]: Invalid value: \"nics\": must be the name of a "
             "request in the claim or the name of a request and a subrequest separated by '/'"});
  // v1beta1 keeps deviceClassName in the request itself.
  CHECK(Check("apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaimTemplate\nmetadata: "
              "{name: t}\nspec: {spec: {devices: {requests: [{name: n, deviceClassName: "
              "neuron.aws.com, count: 16}]}}}\n") == Lines{});
}

// Every YAML file under `dir` with its documents' findings, "" when there are none.
std::string FindingsUnder(const std::filesystem::path& dir, const std::string& prefix) {
  std::string out;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".yaml" && name.rfind(prefix, 0) == 0) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const std::string& line : Check(text)) out += file.string() + ": " + line + "\n";
  }
  CHECK_MESSAGE(!files.empty(), "no YAML files under " << dir);
  return out;
}

TEST_CASE("validate checks: every golden file passes them") {
  CHECK(FindingsUnder(std::filesystem::path(FLOWC_SOURCE_DIR) / "tests/golden", "") == "");
}

TEST_CASE("validate checks: the conformance kit's valid examples pass them") {
  std::filesystem::path examples =
      std::filesystem::path(FLOWC_SOURCE_DIR) / "../shared/conformance/examples";
  if (!std::filesystem::is_directory(examples)) {
    MESSAGE("skipped: no conformance kit at " << examples.string());
    return;
  }
  CHECK(FindingsUnder(examples, "valid-") == "");
}

}  // namespace
}  // namespace flowc::validate
