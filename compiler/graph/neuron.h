// `@neuron`: Neuron devices through Dynamic Resource Allocation (docs/neuron.md). The rules of its arguments, and what a step's flow-level and
// step-level `@neuron` resolve to. The decorator table (decorators.cc) checks
// each argument's type and range; this file checks how they combine.
//
// The mode arguments (`devices`, `all`, `ultraserver`, `template`) are one
// choice: a step that makes it replaces the flow's. The others (`connected`,
// `instance_type`, `driver_version`, `lnc`) are inherited key by key, except
// by a step that names a `template`, which stands for the whole request.
#ifndef FLOWC_GRAPH_NEURON_H_
#define FLOWC_GRAPH_NEURON_H_

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "compiler/diag/diagnostics.h"
#include "compiler/parse/ast.h"

namespace flowc::graph {

struct NeuronConfig {
  int64_t devices = 0;  // ExactCount; 0 with the other modes
  bool all = false;
  int64_t ultraserver = 0;  // 1, 2 or 4: one neuron_node device
  std::string template_name;  // an existing ResourceClaimTemplate
  bool connected = false;
  std::string instance_type;
  std::string driver_version;
  std::optional<int64_t> lnc;
  diag::SourceRange range;  // the step's own @neuron, else the flow's

  // Every field but `range`: steps whose requests are equal share one claim template.
  auto Request() const {
    return std::make_tuple(devices, all, ultraserver, template_name, connected, instance_type,
                           driver_version, lnc);
  }
};

// Checks how the arguments of one written `@neuron` combine (types and ranges
// are already checked); `on_flow`: it is the flow's, the default request of
// every step, so it must choose a mode. Returns false after reporting.
bool CheckNeuronDecorator(const ast::Decorator& decorator, bool on_flow, diag::Reporter& report);

// A step's request: its own `@neuron` over the flow's. `flow` and `step` may
// be null; nullopt when neither is given. `parallel_nodes` is the step's gang
// size. Reports, and returns nullopt with `*ok` false, what only the whole
// step shows (no mode at all, an UltraServer larger than the gang).
std::optional<NeuronConfig> ResolveNeuron(const ast::Decorator* flow, const ast::Decorator* step,
                                          std::optional<int64_t> parallel_nodes,
                                          diag::Reporter& report, bool* ok);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_NEURON_H_
