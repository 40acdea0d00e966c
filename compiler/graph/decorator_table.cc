#include "compiler/graph/decorator_table.h"

#include <map>
#include <optional>
#include <string>
#include <stdexcept>

namespace flowc::graph::decorator_table {
namespace {

using ast::Value;
using Kind = ast::Value::Kind;

// Upper bounds that keep every derived value (millicores, bytes, MiB) far
// inside int64, and counts inside the int32 fields Kubernetes stores them in.
constexpr double kMaxCpu = 1e6;            // cores
constexpr double kMaxMegabytes = 1e12;     // an exabyte
constexpr double kMaxCount = 2147483647;   // int32: parallelism, completions

}  // namespace

const std::vector<DecoratorSpec>& Table() {
  static const std::vector<DecoratorSpec> table = {
      {"kubernetes", kOnStep | kOnFlow, {
          {"cpu", ArgType::kNumber, 0.001, kMaxCpu, "1"},
          {"memory", ArgType::kSize, 1, kMaxMegabytes, "4096"},
          {"disk", ArgType::kSize, 1, kMaxMegabytes, "10240"},
          {"gpu", ArgType::kInt, 1, kMaxCount},
          {"gpu_vendor", ArgType::kEnum, 0, 0, "\"nvidia\"", "nvidia|amd"},
          {"trainium", ArgType::kInt, 1, kMaxCount},
          {"inferentia", ArgType::kInt, 1, kMaxCount},
          {"efa", ArgType::kInt, 1, kMaxCount},
          {"image", ArgType::kString, 0, 0, "\"python:3.12-slim\""},
          {"image_pull_policy", ArgType::kEnum, 0, 0, {}, "Always|IfNotPresent|Never"},
          {"image_pull_secrets", ArgType::kStringList, 0, 0, {}, {}, Rule::kSubdomain},
          {"namespace", ArgType::kString, 0, 0, {}, {}, Rule::kLabel},
          {"service_account", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain},
          {"secrets", ArgType::kStringList, 0, 0, {}, {}, Rule::kSubdomain},
          {"node_selector", ArgType::kNodeSelector, 0, 0, {}, {}, Rule::kLabels},
          {"tolerations", ArgType::kTolerations},
          {"labels", ArgType::kStringMap, 0, 0, {}, {}, Rule::kLabels},
          {"annotations", ArgType::kStringMap, 0, 0, {}, {}, Rule::kAnnotations},
          {"use_tmpfs", ArgType::kBool, 0, 0, "false"},
          {"tmpfs_size", ArgType::kInt, 1, kMaxMegabytes},
          {"tmpfs_path", ArgType::kString, 0, 0, "\"/tmp\"", {}, Rule::kAbsolutePath},
          {"tmpfs_tempdir", ArgType::kBool, 0, 0, "true"},
          {"persistent_volume_claims", ArgType::kStringMap, 0, 0, {}, {}, Rule::kAbsolutePath},
          {"shared_memory", ArgType::kInt, 1, kMaxMegabytes},
          {"port", ArgType::kInt, 1, 65535},
          {"qos", ArgType::kEnum, 0, 0, "\"Burstable\"", "Burstable|Guaranteed"},
          {"security_context", ArgType::kSecurityContext},
      }},
      {"resources", kOnStep | kOnFlow, {
          {"cpu", ArgType::kNumber, 0.001, kMaxCpu},
          {"memory", ArgType::kSize, 1, kMaxMegabytes},
          {"disk", ArgType::kSize, 1, kMaxMegabytes},
          {"gpu", ArgType::kInt, 1, kMaxCount},
          {"shared_memory", ArgType::kInt, 1, kMaxMegabytes},
      }},
      {"neuron", kOnStep | kOnFlow, {
          {"devices", ArgType::kInt, 1, 16, {}, {}, Rule::kNone,
           "a node has at most 16 Neuron devices (trn2.48xlarge); for more, run the step as "
           "@parallel(nodes=N)"},
          {"all", ArgType::kBool},
          {"ultraserver", ArgType::kInt, 1, 4},
          {"template", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain,
           "name the ResourceClaimTemplate as it is in the cluster: lowercase letters, digits, "
           "'-' and '.'"},
          {"connected", ArgType::kBool},
          {"instance_type", ArgType::kString},
          {"driver_version", ArgType::kString},
          {"lnc", ArgType::kInt, 1, 2, {}, {}, Rule::kNone,
           "write lnc=1 for one physical NeuronCore per logical core, or lnc=2 (trn2's "
           "default) for two"},
      }},
      {"parallel", kOnStep, {
          {"nodes", ArgType::kInt, 1, kMaxCount},
      }},
      {"trainjob", kOnStep, {
          {"runtime", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain,
           "name the ClusterTrainingRuntime as it is in the cluster: lowercase letters, digits, "
           "'-' and '.'"},
          {"proc_per_node", ArgType::kInt, 1, kMaxCount},
      }},
      // @queue: the Kueue LocalQueue (and WorkloadPriorityClass) of the object Kueue admits
      // for the step. name: the LocalQueue in the step's namespace, a DNS-1123 label.
      // priority: a WorkloadPriorityClass, a DNS-1123 subdomain.
      {"queue", kOnStep | kOnFlow, {
          {"name", ArgType::kString, 0, 0, {}, {}, Rule::kLabel,
           "name the LocalQueue as it is in the step's namespace: at most 63 lowercase "
           "letters, digits and '-'"},
          {"priority", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain,
           "name the WorkloadPriorityClass as it is in the cluster: lowercase letters, digits, "
           "'-' and '.'"},
      }},
      {"code", kOnStep | kOnFlow, {
          {"files", ArgType::kStringList},
          {"path", ArgType::kString, 0, 0, "\"/workspace\"", {}, Rule::kAbsolutePath},
      }},
      {"retry", kOnStep | kOnFlow, {
          {"times", ArgType::kInt, 0, 10, "3"},
          {"minutes_between_retries", ArgType::kInt, 0, kNoLimit, "2"},
      }},
      {"timeout", kOnStep | kOnFlow, {
          {"seconds", ArgType::kInt, 0},
          {"minutes", ArgType::kInt, 0},
          {"hours", ArgType::kInt, 0},
      }},
      {"environment", kOnStep | kOnFlow, {
          {"vars", ArgType::kStringMap, 0, 0, {}, {}, Rule::kEnvVars},
      }},
      {"secrets", kOnStep | kOnFlow, {
          {"sources", ArgType::kStringList, 0, 0, {}, {}, Rule::kSubdomain},
      }},
      {"schedule", kOnFlow, {
          {"cron", ArgType::kString},
          {"hourly", ArgType::kBool},
          {"daily", ArgType::kBool},
          {"weekly", ArgType::kBool},
          {"timezone", ArgType::kString},
      }},
  };
  return table;
}

const DecoratorSpec* FindDecorator(std::string_view name) {
  for (const DecoratorSpec& spec : Table()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

const ArgSpec* FindArg(const DecoratorSpec& spec, std::string_view name) {
  size_t position = ArgPosition(spec, name);
  return position == kNoArg ? nullptr : &spec.args[position];
}


namespace {

// A table default, as the parser would have produced it.
Value DefaultValue(std::string_view literal) {
  Value value;
  if (literal.front() == '"') {
    value.kind = Kind::kString;
    value.string = std::string(literal.substr(1, literal.size() - 2));
  } else if (literal == "true" || literal == "false") {
    value.kind = Kind::kBool;
    value.bool_value = literal == "true";
  } else {
    value.kind = Kind::kInt;
    value.int_value = std::stoll(std::string(literal));
  }
  return value;
}

}  // namespace

ArgIndex::ArgIndex(const DecoratorSpec& spec) : spec_(&spec), defaults_(spec.args.size()) {
  if (spec.args.size() >= kEmpty) throw std::logic_error("too many arguments to index");
  slots_.fill(kEmpty);
  for (size_t a = 0; a < spec.args.size(); ++a) {
    const ArgSpec& arg = spec.args[a];
    if (!arg.default_value.empty()) defaults_[a] = DefaultValue(arg.default_value);
    if (arg.name.empty() || Find(arg.name) != kNoArg) continue;  // the first of a name
    size_t slot = Hash(arg.name);
    while (slots_[slot] != kEmpty) slot = (slot + 1) & kMask;
    slots_[slot] = static_cast<uint8_t>(a);
  }
}

const ArgIndex& IndexOf(const DecoratorSpec& spec) {
  static const std::vector<ArgIndex> table = [] {
    std::vector<ArgIndex> out;
    for (const DecoratorSpec& s : Table()) out.emplace_back(s);
    return out;
  }();
  const std::vector<DecoratorSpec>& specs = Table();
  if (&spec >= specs.data() && &spec < specs.data() + specs.size()) {
    return table[static_cast<size_t>(&spec - specs.data())];
  }
  static std::map<const DecoratorSpec*, ArgIndex> others;  // a test's own specs
  return others.try_emplace(&spec, spec).first->second;
}

}  // namespace flowc::graph::decorator_table
