// Warning W005: a step that names its EC2 instance type (`@neuron(instance_type=...)`, or a
// node selector on `node.kubernetes.io/instance-type`) and asks one node for more than that
// type has, or for the other Neuron family. The figures are one table,
// compiler/graph/instance_types.def; an unknown type is not checked. decorators.cc calls
// WarnInstanceCapacity with what a step resolves to, which gathers the step's requests and
// where each was written, and calls WarnCapacity.
#ifndef FLOWC_GRAPH_CAPACITY_H_
#define FLOWC_GRAPH_CAPACITY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/graph/decorators.h"
#include "compiler/graph/step_args.h"

namespace flowc::graph {

enum class NeuronFamily { kNone, kTrainium, kInferentia };

// One instance type named by the step, and where.
struct NamedInstanceType {
  std::string name;
  diag::SourceRange range;
  bool from_step = false;
};

// What one pod asks for, each with where it was written (an unset range: not asked).
struct CapacityRequest {
  struct Ask {
    int64_t amount = 0;
    std::string text;  // the amount as the pod carries it ("3000G", "500m")
    diag::SourceRange range;
    bool from_step = false;
  };
  Ask neuron_devices;                         // trainium=, inferentia= or @neuron(devices=N)
  NeuronFamily family = NeuronFamily::kNone;  // kNone for @neuron, which names no family
  Ask efa;
  Ask cpu_millis;
  Ask memory_bytes;
};

// Warns at each ask that exceeds a named type's figure, and at the family when it is not the
// type's. Reports only what involves the step (`on_step`) or only what the flow alone
// causes, so that a flow's defaults are reported once.
void WarnCapacity(const std::vector<NamedInstanceType>& types, const CapacityRequest& request,
                  bool on_step, diag::Reporter& report);

// The instance types a step names (its @neuron's, its node selector's) and its requests, each
// from the decorator that asked (of @kubernetes and @resources, the one whose value is the
// larger), against WarnCapacity. `step`: null for what the flow alone asks.
void WarnInstanceCapacity(const StepConfig& c, const step_args::ArgsByName& args,
                          const ast::Step* step, diag::Reporter& report);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_CAPACITY_H_
