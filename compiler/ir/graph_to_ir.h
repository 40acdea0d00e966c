// The lowering: step graph -> IR. The one place where a step's pod is
// computed (requests and limits, accelerators, the Neuron toleration,
// volumes and mounts, env, labels, service account, pull policy and
// secrets, security context, the @parallel env) along with its control block.
#ifndef FLOWC_IR_GRAPH_TO_IR_H_
#define FLOWC_IR_GRAPH_TO_IR_H_

#include "compiler/graph/graph.h"
#include "compiler/ir/ir.h"

namespace flowc::ir {

// Lowers a valid graph. Cannot fail: every rule was checked by BuildGraph.
// Consumes the graph: each step's configuration and command move into its
// pod or are freed once it is lowered, so the graph and the IR are never both
// whole (a 100,000-step flow holds about 2 KB a step in each).
Flow LowerToIr(graph::Flow graph, const std::string& source_path);

// The Kubernetes escape of `$`: kubelet expands `$(VAR)` in command, args and
// env values and turns `$$` into `$`, so a `$` that precedes `$`, `(` or a
// non-ASCII character (which kubelet would garble) is written `$$`; the text
// then reaches the container byte for byte.
std::string EscapeDollars(std::string_view text);

}  // namespace flowc::ir

#endif  // FLOWC_IR_GRAPH_TO_IR_H_
