#include "compiler/graph/capacity.h"

#include <fmt/format.h>

#include <cmath>

#include "compiler/graph/step_args.h"

namespace flowc::graph {
namespace {

struct InstanceType {
  std::string_view name;
  NeuronFamily family;
  int64_t neuron_devices;
  int64_t efa_interfaces;  // -1: not checked
  int64_t vcpus;
  int64_t memory_gib;
  // Cited in instance_types.def, kept beside the figures: devices, vCPUs and memory; EFA.
  std::string_view source;
  std::string_view efa_source;
};

constexpr NeuronFamily kTrainium = NeuronFamily::kTrainium;
constexpr NeuronFamily kInferentia = NeuronFamily::kInferentia;

constexpr InstanceType kInstanceTypes[] = {
#define X(name, family, devices, efa, vcpus, memory, source, efa_source) \
  {name, family, devices, efa, vcpus, memory, source, efa_source},
#include "compiler/graph/instance_types.def"
#undef X
};

const InstanceType* FindType(std::string_view name) {
  for (const InstanceType& type : kInstanceTypes) {
    if (type.name == name) return &type;
  }
  return nullptr;
}

std::string_view FamilyName(NeuronFamily family) {
  return family == kTrainium ? "Trainium" : "Inferentia";
}

// "1 Neuron device", "16 Neuron devices".
std::string Count(int64_t n, std::string_view what) {
  return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
}

constexpr const char* kCapacityHelp =
    "these figures are the instance's capacity, and a node's allocatable is less (kubelet and "
    "system reservations)";

}  // namespace

void WarnCapacity(const std::vector<NamedInstanceType>& types, const CapacityRequest& request,
                  bool on_step, diag::Reporter& report) {
  for (const NamedInstanceType& named : types) {
    const InstanceType* type = FindType(named.name);
    if (type == nullptr) continue;
    // Each figure a step can ask for beyond one node: what, how much, and how to ask less.
    struct Check {
      const CapacityRequest::Ask& ask;
      int64_t limit;  // in the ask's unit
      std::string has;
      std::string what;
      std::string fix;
    };
    const Check checks[] = {
        {request.neuron_devices, type->neuron_devices, Count(type->neuron_devices, "Neuron device"),
         Count(request.neuron_devices.amount, "Neuron device"),
         "ask for fewer, or spread the work over a gang with @parallel(nodes=N)"},
        {request.efa, type->efa_interfaces, Count(type->efa_interfaces, "EFA interface"),
         Count(request.efa.amount, "EFA interface"), "ask for fewer"},
        {request.cpu_millis, type->vcpus * 1000, fmt::format("{} vCPUs", type->vcpus),
         fmt::format("{} CPUs", request.cpu_millis.text), "ask for fewer"},
        {request.memory_bytes, type->memory_gib << 30,
         fmt::format("{} GiB of memory", type->memory_gib),
         fmt::format("{} of memory", request.memory_bytes.text), "ask for less"},
    };
    for (const Check& check : checks) {
      const CapacityRequest::Ask& ask = check.ask;
      if (!ask.range.valid() || check.limit < 0 || ask.amount <= check.limit) continue;
      if (on_step != (ask.from_step || named.from_step)) continue;  // the other pass warns
      report(diag::Code::kExceedsInstanceType, ask.range,
             fmt::format("the step asks for {}, but one {} node has {}", check.what, type->name,
                         check.has))
          .AddNote(named.range, fmt::format("the instance type '{}' is named here", type->name))
          .SetHelp(fmt::format("{}; {}", check.fix, kCapacityHelp));
    }
    const CapacityRequest::Ask& devices = request.neuron_devices;
    if (request.family != NeuronFamily::kNone && request.family != type->family &&
        devices.range.valid() && on_step == (devices.from_step || named.from_step)) {
      report(diag::Code::kExceedsInstanceType, devices.range,
             fmt::format("the step asks for {} devices, but {} has {} devices",
                         FamilyName(request.family), type->name, FamilyName(type->family)))
          .AddNote(named.range, fmt::format("the instance type '{}' is named here", type->name))
          .SetHelp(fmt::format("write '{}' to run on {}, or name a {} instance type",
                               type->family == kTrainium ? "trainium" : "inferentia", type->name,
                               FamilyName(request.family)));
    }
  }
}

// W005: the requests of a step that names its instance type, against that type's figures.
void WarnInstanceCapacity(const StepConfig& c, const step_args::ArgsByName& args,
                          const ast::Step* step, diag::Reporter& report) {
  using ast::Value;
  using Kind = ast::Value::Kind;
  using step_args::Args;
  using step_args::Field;
  using step_args::Resolved;
  using step_args::Size;
  const Args& k8s = args.at("kubernetes");
  const Args& resources = args.at("resources");
  const Args& neuron = args.at("neuron");
  std::vector<NamedInstanceType> types;
  if (Resolved r = neuron.Get("instance_type"); r.value != nullptr) {
    types.push_back({r.value->string, r.value->range, r.from_step});
  }
  if (Resolved r = k8s.Get("node_selector"); r.value != nullptr) {
    for (const auto& [key, value] : c.node_selector) {
      if (key != "node.kubernetes.io/instance-type") continue;
      const Value* at = r.value->kind == Kind::kString ? r.value : Field(*r.value, key);
      types.push_back({value, at->range, r.from_step});
    }
  }
  if (types.empty()) return;
  using Ask = CapacityRequest::Ask;
  auto ask = [](int64_t amount, std::string text, Resolved r) {
    return r.value != nullptr ? Ask{amount, std::move(text), r.value->range, r.from_step} : Ask{};
  };
  // The larger of @kubernetes and @resources is the request: the one that wrote it asks.
  auto origin = [&](std::string_view name, bool resources_wins) {
    Resolved r = resources.Get(name);
    return r.value != nullptr && resources_wins ? r : k8s.Get(name);
  };
  CapacityRequest request;
  for (std::string_view family : {"trainium", "inferentia"}) {
    if (Resolved r = k8s.Get(family); r.value != nullptr) {
      request.neuron_devices = ask(c.neuron, "", r);
      request.family = family == "trainium" ? NeuronFamily::kTrainium : NeuronFamily::kInferentia;
    }
  }
  if (Resolved r = neuron.Get("devices"); r.value != nullptr) {
    request.neuron_devices = ask(r.value->int_value, "", r);
  }
  request.efa = ask(c.efa, "", k8s.Get("efa"));
  const Value* cpu = resources["cpu"];
  request.cpu_millis =
      ask(c.cpu_millis, CpuQuantity(c.cpu_millis),
          origin("cpu", cpu != nullptr && std::llround(cpu->AsDouble() * 1000) == c.cpu_millis));
  const Value* memory = resources["memory"];
  bool memory_wins = memory != nullptr && Size(*memory).bytes == c.memory.bytes;
  request.memory_bytes = ask(c.memory.bytes, c.memory.text, origin("memory", memory_wins));
  WarnCapacity(types, request, step != nullptr, report);
}

}  // namespace flowc::graph
