// Unit tests of the one Kubernetes pod renderer (backends/k8s/pod_yaml.h):
// string quoting, field names and order, and that every user string passes
// through the target's StringPolicy.
#include <algorithm>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include "backends/k8s/pod_yaml.h"
#include "compiler/graph/templating.h"

namespace flowc::backends::k8s {
namespace {

class PlainStrings : public StringPolicy {
 public:
  std::string Text(const ir::Text& text) const override { return text.ToFlowString(); }
};

// Marks what went through which hook, so a test can prove nothing bypassed them.
class MarkingStrings : public StringPolicy {
 public:
  std::string Text(const ir::Text& text) const override { return "T<" + text.ToFlowString() + ">"; }
  std::string Literal(std::string_view text) const override {
    return "L<" + std::string(text) + ">";
  }
};

std::string EmitOne(std::string_view value) {
  YAML::Emitter out;
  out << YAML::BeginSeq;
  EmitString(out, value);
  out << YAML::EndSeq;
  std::string text = out.c_str();
  REQUIRE(text.rfind("- ", 0) == 0);
  return text.substr(2);
}

ir::Text Arg(std::string_view text) { return graph::SplitReferences(text); }

// A pod with every field set, the way the IR lowers a multi-node Neuron step.
ir::Pod FullPod() {
  ir::Pod pod;
  pod.namespace_ = "ml";
  pod.labels = {{"team", "ml"}, {"yes", "on"}};
  pod.annotations = {{"acme.io/owner", "a@b.c"}};
  pod.image = "public.ecr.aws/neuron/pytorch:2.9";
  pod.command = {Arg("/bin/sh"), Arg("-c"), Arg("python train.py --epochs {{epochs}}")};
  pod.env = {
      {"FI_PROVIDER", "efa", ""},
      {"FLOWC_NODE_INDEX", "", "metadata.annotations['batch.kubernetes.io/job-completion-index']"}};
  pod.env_from_secrets = {"wandb"};
  pod.resources.edit().requests = {{"cpu", "96"}, {"memory", "480000M"}, {"ephemeral-storage", "10240M"}};
  pod.resources.edit().limits = {{"aws.amazon.com/neuron", "16"}, {"vpc.amazonaws.com/efa", "16"}};
  pod.volume_mounts = {{"shm", "/dev/shm"}, {"cache", "/cache"}};
  pod.image_pull_policy = "IfNotPresent";
  pod.security_context = ir::SecurityContext{false, false, 1000, 1000, true};
  pod.port = 9102;
  pod.service_account_name = "flows";
  pod.node_selector = {{"node.kubernetes.io/instance-type", "trn1n.32xlarge"}};
  pod.tolerations = {{"dedicated", "Equal", "trn1", "NoSchedule", std::nullopt},
                     {"node.kubernetes.io/unreachable", "Exists", "", "NoExecute", 600},
                     {"aws.amazon.com/neuron", "Exists", "", "NoSchedule", std::nullopt}};
  pod.volumes = {{"shm", ir::Volume::Kind::kMemory, "65536Mi", ""},
                 {"cache", ir::Volume::Kind::kClaim, "", "neuron-cache"}};
  pod.image_pull_secrets = {"ghcr-pull"};
  return pod;
}

TEST_CASE("EmitString quotes every string a YAML 1.1 or 1.2 reader would not read as a string") {
  const char* quoted[] = {
      // bools, YAML 1.1 and 1.2, any case
      "yes", "Yes", "YES", "no", "NO", "on", "On", "off", "OFF", "y", "Y", "n", "N", "true",
      "False", "yEs",
      // null
      "null", "Null", "NULL", "~", "",
      // ints: decimal, octal (1.1 and 1.2), hex, binary, underscores, sexagesimal, signs
      "0", "1", "42", "0755", "0o17", "0x1F", "0b101", "1_000", "1:20", "190:20:30", "+1", "-1",
      // floats
      "1.0", "1e3", "1E-3", ".5", "-.5", "+.5", ".inf", ".Inf", "-.inf", "+.INF", ".nan", ".NaN",
      "6.8523015e+5", "685_230.15",
      // timestamps
      "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
      // merge and value keys
      "<<", "=",
      // quantities stay strings
      "500m", "4096M", "64Mi", "0-3"};
  for (const char* value : quoted) {
    CAPTURE(value);
    std::string emitted = EmitOne(value);
    CHECK(emitted.front() == '"');
    CHECK(YAML::Load(emitted).as<std::string>() == value);
  }
}

TEST_CASE("EmitString leaves ordinary strings plain") {
  const char* plain[] = {"main",
                         "python:3.12-slim",
                         "IfNotPresent",
                         "nvidia.com/gpu",
                         "a:b",
                         "s3://bucket/x",
                         "yess",
                         "nope",
                         "Never",
                         "team",
                         "onion",
                         "nullable",
                         "r\u00e9sum\u00e9",
                         "x-1.0",
                         "--epochs",
                         "-c"};
  for (const char* value : plain) {
    CAPTURE(value);
    CHECK(EmitOne(value) == value);
  }
}

TEST_CASE("EmitString round-trips hostile strings") {
  const std::vector<std::string> hostile = {
      "say \"hi\" and 'bye'",
      "line1\nline2\n",
      "{{epochs}} and {{ not a ref",
      "{% raw %}{#",
      "# not a comment",
      "key: value",
      "trailing: ",
      "x #y",
      "- item",
      "-",
      "? q",
      "[a, b]",
      "{a: b}",
      "*alias",
      "&anchor",
      "!tag",
      "| literal",
      "> folded",
      "%directive",
      "@at",
      "`tick",
      "  leading spaces",
      "trailing spaces  ",
      "tab\there",
      "back\\slash",
      "$(HOME) $$ $",
      "C:\\reports\\shadow",
      "---",
      "...",
      "\t",
      " ",
      std::string("nul\0byte", 8),
      "del\x7f",
      "bell\x07",
      "c1\xc2\x85nel",
      "ls\xe2\x80\xa8ps\xe2\x80\xa9",
      "bom\xef\xbb\xbf",
      "emoji \xf0\x9f\x98\x80",
      "r\u00e9sum\u00e9",
      "\"\"\"triple\"\"\"",
  };
  for (const std::string& value : hostile) {
    CAPTURE(value);
    std::string emitted = EmitOne(value);
    // No raw line break may remain: a reader would fold it.
    CHECK(emitted.find('\n') == std::string::npos);
    CHECK(emitted.find("\xe2\x80\xa8") == std::string::npos);
    CHECK(YAML::Load(emitted).as<std::string>() == value);
  }
}

TEST_CASE("EmitString escapes characters that PyYAML rejects or folds") {
  CHECK(EmitOne("del\x7f") == "\"del\\x7f\"");
  CHECK(EmitOne("a\xe2\x80\xa8z") == "\"a\\u2028z\"");
  // Ordinary non-ASCII text stays readable.
  CHECK(EmitOne("caf\u00e9 \u00e0 5\u20ac") == "caf\u00e9 \u00e0 5\u20ac");
}

TEST_CASE("EmitContainer writes the Kubernetes field names in the fixed order") {
  PlainStrings strings;
  YAML::Emitter out;
  EmitContainer(out, FullPod(), strings);
  std::string expected = R"(name: main
image: public.ecr.aws/neuron/pytorch:2.9
command:
  - /bin/sh
  - -c
  - python train.py --epochs {{epochs}}
env:
  - name: FI_PROVIDER
    value: efa
  - name: FLOWC_NODE_INDEX
    valueFrom:
      fieldRef:
        fieldPath: metadata.annotations['batch.kubernetes.io/job-completion-index']
envFrom:
  - secretRef:
      name: wandb
resources:
  requests:
    cpu: "96"
    memory: "480000M"
    ephemeral-storage: "10240M"
  limits:
    aws.amazon.com/neuron: "16"
    vpc.amazonaws.com/efa: "16"
volumeMounts:
  - name: shm
    mountPath: /dev/shm
  - name: cache
    mountPath: /cache
imagePullPolicy: IfNotPresent
securityContext:
  privileged: false
  allowPrivilegeEscalation: false
  runAsUser: 1000
  runAsGroup: 1000
  runAsNonRoot: true
ports:
  - containerPort: 9102)";
  CHECK(std::string(out.c_str()) == expected);
}

TEST_CASE("EmitPodTemplate writes metadata, restartPolicy Never, pod fields, then the container") {
  PlainStrings strings;
  YAML::Emitter out;
  EmitPodTemplate(out, FullPod(), strings);
  YAML::Node pod = YAML::Load(out.c_str());
  CHECK(pod["metadata"]["labels"]["team"].as<std::string>() == "ml");
  CHECK(pod["metadata"]["labels"]["yes"].as<std::string>() == "on");
  CHECK(pod["metadata"]["annotations"]["acme.io/owner"].as<std::string>() == "a@b.c");
  CHECK(!pod["metadata"]["namespace"]);  // the object's, not the template's

  YAML::Node spec = pod["spec"];
  std::vector<std::string> keys;
  for (const auto& entry : spec) keys.push_back(entry.first.as<std::string>());
  CHECK(keys == std::vector<std::string>{"restartPolicy", "serviceAccountName", "nodeSelector",
                                         "tolerations", "volumes", "imagePullSecrets",
                                         "containers"});
  CHECK(spec["restartPolicy"].as<std::string>() == "Never");
  CHECK(spec["serviceAccountName"].as<std::string>() == "flows");
  CHECK(spec["nodeSelector"]["node.kubernetes.io/instance-type"].as<std::string>() ==
        "trn1n.32xlarge");

  YAML::Node tolerations = spec["tolerations"];
  REQUIRE(tolerations.size() == 3);
  CHECK(tolerations[0]["key"].as<std::string>() == "dedicated");
  CHECK(tolerations[0]["operator"].as<std::string>() == "Equal");
  CHECK(tolerations[0]["value"].as<std::string>() == "trn1");
  CHECK(tolerations[0]["effect"].as<std::string>() == "NoSchedule");
  CHECK(!tolerations[0]["tolerationSeconds"]);
  CHECK(!tolerations[1]["value"]);
  CHECK(tolerations[1]["tolerationSeconds"].as<int>() == 600);
  CHECK(tolerations[2]["key"].as<std::string>() == "aws.amazon.com/neuron");

  YAML::Node volumes = spec["volumes"];
  REQUIRE(volumes.size() == 2);
  CHECK(volumes[0]["emptyDir"]["medium"].as<std::string>() == "Memory");
  CHECK(volumes[0]["emptyDir"]["sizeLimit"].as<std::string>() == "65536Mi");
  CHECK(volumes[1]["persistentVolumeClaim"]["claimName"].as<std::string>() == "neuron-cache");
  CHECK(spec["imagePullSecrets"][0]["name"].as<std::string>() == "ghcr-pull");
  REQUIRE(spec["containers"].size() == 1);
  CHECK(spec["containers"][0]["name"].as<std::string>() == "main");
}

TEST_CASE("an empty pod renders only what Kubernetes requires") {
  PlainStrings strings;
  ir::Pod pod;
  pod.image = "busybox";
  YAML::Emitter out;
  EmitPodTemplate(out, pod, strings);
  CHECK(std::string(out.c_str()) == R"(spec:
  restartPolicy: Never
  containers:
    - name: main
      image: busybox)");
}

// Every scalar under `node` that is not one of flowc's own constants.
void CollectScalars(const YAML::Node& node, std::vector<std::string>& out) {
  if (node.IsScalar()) {
    out.push_back(node.as<std::string>());
  } else if (node.IsSequence()) {
    for (const auto& item : node) CollectScalars(item, out);
  } else if (node.IsMap()) {
    for (const auto& entry : node) {
      const std::string key = entry.first.as<std::string>();
      // Keys of user maps are user strings; other keys are API field names.
      if (key == "labels" || key == "annotations" || key == "nodeSelector" || key == "requests" ||
          key == "limits") {
        for (const auto& user : entry.second) {
          out.push_back(user.first.as<std::string>());
          out.push_back(user.second.as<std::string>());
        }
      } else {
        CollectScalars(entry.second, out);
      }
    }
  }
}

TEST_CASE("every user string goes through the StringPolicy") {
  MarkingStrings strings;
  YAML::Emitter out;
  EmitPodTemplate(out, FullPod(), strings);
  std::vector<std::string> scalars;
  CollectScalars(YAML::Load(out.c_str()), scalars);
  const std::vector<std::string> own = {"Never", "main", "Memory", "false",
                                        "true",  "1000", "600",    "9102"};
  for (const std::string& scalar : scalars) {
    CAPTURE(scalar);
    bool ok = scalar.rfind("L<", 0) == 0 || scalar.rfind("T<", 0) == 0 ||
              std::find(own.begin(), own.end(), scalar) != own.end();
    CHECK(ok);
  }
  CHECK(std::find(scalars.begin(), scalars.end(), "T<python train.py --epochs {{epochs}}>") !=
        scalars.end());
}

}  // namespace
}  // namespace flowc::backends::k8s
