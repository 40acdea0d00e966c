#include "compiler/ir/neuron_claims.h"

#include <fmt/format.h>

namespace flowc::ir {
namespace {

// The parameters' apiVersion, as docs/neuron.md fixes it from the AWS Neuron DRA
// documentation's examples (aws-neuron/aws-neuron-sdk,
// containers/files/specs/lnc-setting-trn2.yaml).
constexpr const char* kNeuronConfigApiVersion = "neuron.aws.com/v1alphav1";

std::string Attribute(std::string_view name) {
  return fmt::format("device.attributes['{}'].{}", kNeuronDriver, name);
}

// The selector `attribute == 'value'` NeuronClaimTemplate writes.
std::string Selector(std::string_view attribute, std::string_view value) {
  return fmt::format("{} == '{}'", Attribute(attribute), value);
}

// The value of the selector on `attribute`, read back from the text Selector wrote; "" when the
// template has none.
std::string SelectorValue(const ResourceClaimTemplate& t, std::string_view attribute) {
  std::string prefix = Selector(attribute, "");
  prefix.pop_back();  // the closing quote
  for (const std::string& selector : t.selectors) {
    if (selector.size() > prefix.size() && selector.compare(0, prefix.size(), prefix) == 0) {
      return selector.substr(prefix.size(), selector.size() - prefix.size() - 1);
    }
  }
  return "";
}

constexpr const char* kUltraServerConfig = "UltraServerConfig";
constexpr const char* kUltraServerMode = "ultraserverMode";

OpaqueDeviceConfig Config(std::string kind, std::string field, int64_t value) {
  return OpaqueDeviceConfig{kNeuronDriver, kNeuronConfigApiVersion, std::move(kind),
                            {{std::move(field), value}}};
}

}  // namespace

ResourceClaimTemplate NeuronClaimTemplate(const graph::NeuronConfig& n) {
  ResourceClaimTemplate t;
  t.request_name = kNeuronClaim;
  t.device_class = kNeuronDriver;
  if (n.all) {
    t.allocation_mode = "All";
  } else {
    t.allocation_mode = "ExactCount";
    // An UltraServer request is one `neuron_node` device: the node itself,
    // with the UltraServer mode as its config (containers/files/specs/
    // us-and-lnc-config.yaml).
    t.count = n.ultraserver > 0 ? 1 : n.devices;
  }
  // The values are CEL-safe (CheckNeuronDecorator refuses anything else).
  if (n.ultraserver > 0) t.selectors.push_back(Selector("resourceType", "neuron_node"));
  if (!n.instance_type.empty()) t.selectors.push_back(Selector("instanceType", n.instance_type));
  if (!n.driver_version.empty()) {
    t.selectors.push_back(Selector("neuronDriverVersion", n.driver_version));
  }
  // A connected set: every device shares the id of one device group of that
  // size (containers/files/specs/1x4-connected-devices.yaml).
  if (n.connected) t.match_attribute = fmt::format("resource.aws.com/devicegroup{}_id", n.devices);
  if (n.ultraserver > 0) {
    t.configs.push_back(Config(kUltraServerConfig, kUltraServerMode, n.ultraserver));
  }
  if (n.lnc) t.configs.push_back(Config("NeuronConfig", "logicalNeuronCore", *n.lnc));
  return t;
}

std::string NeuronClaimTemplateName(std::string_view flow_k8s_name,
                                    const ResourceClaimTemplate& claim_template,
                                    ContentHashes& hashes) {
  Object object{"", "", {}, claim_template};
  return fmt::format("{}-neuron-{}", flow_k8s_name, hashes.Of(object));
}

std::string NeuronRequestSummary(const ResourceClaimTemplate& t) {
  std::string out = t.device_class;
  int64_t ultraserver = 0;
  for (const OpaqueDeviceConfig& c : t.configs) {
    if (c.kind != kUltraServerConfig) continue;
    for (const auto& [field, value] : c.fields) {
      if (field == kUltraServerMode) ultraserver = value;
    }
  }
  if (t.allocation_mode == "All") {
    out += " all";
  } else if (ultraserver > 0) {
    out += fmt::format(" ultraserver x{}", ultraserver);
  } else {
    out += fmt::format(" x{}", t.count);
  }
  if (!t.match_attribute.empty()) out += " connected";
  if (std::string type = SelectorValue(t, "instanceType"); !type.empty()) out += " on " + type;
  return out;
}

}  // namespace flowc::ir
