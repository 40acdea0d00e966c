#include "compiler/graph/neuron.h"

#include <array>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace flowc::graph {
namespace {

using diag::Code;
using Kind = ast::Value::Kind;

constexpr std::array<std::string_view, 4> kModes = {"devices", "all", "ultraserver", "template"};

const ast::Argument* Find(const ast::Decorator* d, std::string_view name) {
  if (d == nullptr) return nullptr;
  for (const ast::Argument& arg : d->arguments) {
    if (arg.name.name == name) return &arg;
  }
  return nullptr;
}

bool IsMode(std::string_view name) {
  for (std::string_view mode : kModes) {
    if (mode == name) return true;
  }
  return false;
}

// Attribute values go into a CEL string literal between single quotes
// (`device.attributes['neuron.aws.com'].instanceType == 'trn2.48xlarge'`).
// Instance types and driver versions are made of these characters; anything
// else (a quote, a backslash, a line break) could end the literal or change
// its meaning, so it is refused rather than escaped.
bool IsCelSafe(std::string_view text) {
  for (char c : text) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '-' || c == '_' || c == '+';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

bool CheckNeuronDecorator(const ast::Decorator& decorator, bool on_flow, diag::Reporter& report) {
  bool ok = true;
  bool has_mode = false;
  for (const ast::Argument& arg : decorator.arguments) has_mode = has_mode || IsMode(arg.name.name);
  if (on_flow && !has_mode) {
    report(Code::kMissingArgument, decorator.range,
           "'@neuron' on the flow needs one of 'devices', 'all', 'ultraserver' or 'template'")
        .AddNote("it is the request of every step that has no '@neuron' of its own")
        .SetHelp("write @neuron(devices=4) for four devices, or @neuron(all=true) for every "
                 "device of the node");
    ok = false;
  }
  const ast::Argument* mode = nullptr;
  for (const ast::Argument& arg : decorator.arguments) {
    if (!IsMode(arg.name.name)) continue;
    if (mode != nullptr) {
      report(Code::kNeuronRequest, arg.name.range,
             fmt::format("'{}' and '{}' of '@neuron' exclude each other", mode->name.name,
                         arg.name.name))
          .AddNote(mode->name.range, fmt::format("'{}' is given here", mode->name.name))
          .SetHelp("give exactly one of devices=N, all=true, ultraserver=N or template=\"NAME\"");
      ok = false;
      continue;
    }
    mode = &arg;
  }
  if (const ast::Argument* all = Find(&decorator, "all"); all && !all->value.bool_value) {
    report(Code::kNeuronRequest, all->value.range, "'all=false' of '@neuron' asks for no devices")
        .SetHelp("write devices=N for N devices, or all=true for every device of the node");
    ok = false;
  }
  if (const ast::Argument* us = Find(&decorator, "ultraserver")) {
    int64_t n = us->value.int_value;
    if (n != 1 && n != 2 && n != 4) {
      report(Code::kArgumentRange, us->value.range,
             fmt::format("'ultraserver' of '@neuron' must be 1, 2 or 4, found {}", n))
          .SetHelp("an UltraServer is used whole (4 nodes), in halves (2) or by single nodes (1)");
      ok = false;
    }
  }
  if (const ast::Argument* t = Find(&decorator, "template")) {
    for (const ast::Argument& arg : decorator.arguments) {
      if (&arg == t || IsMode(arg.name.name)) continue;
      report(Code::kNeuronRequest, arg.name.range,
             fmt::format("'{}' cannot be combined with 'template' in '@neuron'", arg.name.name))
          .AddNote(t->name.range, "the template holds the whole request")
          .SetHelp(fmt::format("remove '{}', or drop 'template' to have flowc write the request",
                               arg.name.name));
      ok = false;
    }
  }
  for (std::string_view name : {"instance_type", "driver_version"}) {
    const ast::Argument* arg = Find(&decorator, name);
    if (arg == nullptr || IsCelSafe(arg->value.string)) continue;
    report(Code::kNeuronRequest, arg->value.range,
           fmt::format("'{}' of '@neuron' may hold only letters, digits, '.', '-', '_' and '+'",
                       name))
        .AddNote("the value is placed in a CEL string literal of the device selector")
        .SetHelp(name == std::string_view("instance_type")
                     ? "write the EC2 instance type as AWS names it, e.g. \"trn2.48xlarge\""
                     : "write the driver version as the Neuron driver reports it, e.g. "
                       "\"2.24.7.0\"");
    ok = false;
  }
  return ok;
}

std::optional<NeuronConfig> ResolveNeuron(const ast::Decorator* flow, const ast::Decorator* step,
                                          std::optional<int64_t> parallel_nodes,
                                          diag::Reporter& report, bool* ok) {
  if (flow == nullptr && step == nullptr) return std::nullopt;
  const ast::Decorator* own = step != nullptr ? step : flow;
  bool step_mode = false;
  for (std::string_view mode : kModes) step_mode = step_mode || Find(step, mode) != nullptr;
  // Where each argument comes from: a step's mode replaces the flow's, and a
  // step's template replaces the flow's request whole.
  const bool whole_step = Find(step, "template") != nullptr;
  auto get = [&](std::string_view name) -> const ast::Argument* {
    if (const ast::Argument* arg = Find(step, name)) return arg;
    if (whole_step || (step_mode && IsMode(name))) return nullptr;
    return Find(flow, name);
  };

  NeuronConfig c;
  c.range = own->range;
  const ast::Argument* mode = nullptr;
  for (std::string_view name : kModes) {
    if (const ast::Argument* arg = get(name)) mode = arg;
  }
  if (mode == nullptr) {
    // Only a step's own decorator gets here: a flow-level @neuron without a
    // mode is reported once, for the flow (CheckNeuronDecorator).
    report(Code::kMissingArgument, own->range,
           "'@neuron' needs one of 'devices', 'all', 'ultraserver' or 'template'")
        .SetHelp("write @neuron(devices=4) for four devices, or @neuron(all=true) for every "
                 "device of the node");
    *ok = false;
    return std::nullopt;
  }
  if (const ast::Argument* a = get("devices")) c.devices = a->value.int_value;
  if (const ast::Argument* a = get("all")) c.all = a->value.bool_value;
  if (const ast::Argument* a = get("ultraserver")) c.ultraserver = a->value.int_value;
  if (const ast::Argument* a = get("template")) c.template_name = a->value.string;
  if (const ast::Argument* a = get("instance_type")) c.instance_type = a->value.string;
  if (const ast::Argument* a = get("driver_version")) c.driver_version = a->value.string;
  if (const ast::Argument* a = get("lnc")) c.lnc = a->value.int_value;
  const ast::Argument* connected = get("connected");
  c.connected = connected != nullptr && connected->value.bool_value;

  if (c.connected && c.devices != 1 && c.devices != 4 && c.devices != 8 && c.devices != 16) {
    auto& d = report(Code::kNeuronRequest, connected->value.range,
                     c.devices > 0
                         ? fmt::format("a connected set of {} Neuron devices does not exist",
                                       c.devices)
                         : fmt::format("'connected' of '@neuron' needs 'devices', not '{}'",
                                       mode->name.name));
    if (mode->name.range.line != connected->value.range.line || c.devices > 0) {
      d.AddNote(mode->name.range, fmt::format("'{}' is given here", mode->name.name));
    }
    d.SetHelp("connected sets have 1, 4, 8 or 16 devices: write devices=1, 4, 8 or 16");
    *ok = false;
    return std::nullopt;
  }
  if (c.ultraserver > 1 && parallel_nodes.value_or(1) != c.ultraserver) {
    const ast::Argument* us = get("ultraserver");
    report(Code::kNeuronRequest, us->value.range,
           parallel_nodes ? fmt::format("'ultraserver={}' needs a gang of {} nodes, but the step "
                                        "has @parallel(nodes={})",
                                        c.ultraserver, c.ultraserver, *parallel_nodes)
                          : fmt::format("'ultraserver={}' needs a gang of {} nodes, but the step "
                                        "runs one pod",
                                        c.ultraserver, c.ultraserver))
        .AddNote("each node of the gang takes one node of the UltraServer")
        .SetHelp(fmt::format("run the step as @parallel(nodes={}), or use ultraserver=1",
                             c.ultraserver));
    *ok = false;
    return std::nullopt;
  }
  return c;
}

}  // namespace flowc::graph
