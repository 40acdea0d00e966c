// `@queue`: the Kueue LocalQueue and WorkloadPriorityClass of a step (docs/kueue.md).
// What a step's flow-level and step-level `@queue` resolve to, argument by argument, and the
// rules no single argument shows: a queue needs a name somewhere, and the Kueue labels are
// written by `@queue` alone. The decorator table (decorator_table.cc) checks each argument's
// type and Kubernetes rule; decorators.cc and ast_to_graph.cc call this file.
#ifndef FLOWC_GRAPH_QUEUE_H_
#define FLOWC_GRAPH_QUEUE_H_

#include <optional>
#include <string>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/parse/ast.h"

namespace flowc::graph {

// The label keys Kueue reads on the object it admits (kubernetes-sigs/kueue
// pkg/controller/constants/constants.go: QueueLabel, WorkloadPriorityClassLabel).
inline constexpr const char* kKueueQueueLabel = "kueue.x-k8s.io/queue-name";
inline constexpr const char* kKueuePriorityLabel = "kueue.x-k8s.io/priority-class";

struct QueueConfig {
  std::string name;         // a LocalQueue; "" only on the flow's, whose steps name their own
  std::string priority;     // a WorkloadPriorityClass, or ""
  diag::SourceRange range;  // the step's own @queue, else the flow's

  bool operator==(const QueueConfig& o) const { return name == o.name && priority == o.priority; }
  bool operator!=(const QueueConfig& o) const { return !(*this == o); }
};

// The flow's own @queue (nullopt without one); `decorator` has passed the table's checks.
QueueConfig FlowQueue(const ast::Decorator& decorator);

// Reports, once, a flow-level @queue without `name` when a step has no @queue of its own
// to name the queue: that step would carry a priority and no queue. `flow` may be null.
bool CheckFlowQueueNamed(const ast::Decorator* flow, const std::vector<ast::Step>& steps,
                         diag::Reporter& report);

// A step's queue: its own @queue over the flow's, argument by argument; nullopt when neither
// is written. A step's own @queue that leaves the queue unnamed is reported here; a step
// without one under an unnamed flow @queue was reported by CheckFlowQueueNamed. Either way
// `*ok` becomes false.
std::optional<QueueConfig> ResolveQueue(const ast::Decorator* flow, const ast::Decorator* step,
                                        diag::Reporter& report, bool* ok);

// Reports a Kueue label written in @kubernetes(labels=...): pod labels reach the pods a gang's
// JobSet or TrainJob owns, which Kueue would then admit a second time. `labels` may be null.
bool CheckNoKueueLabels(const ast::Value* labels, diag::Reporter& report);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_QUEUE_H_
