// `flowc graph`: the step graph of a flow as Graphviz dot or Mermaid text.
#ifndef FLOWC_DRIVER_GRAPH_VIEW_H_
#define FLOWC_DRIVER_GRAPH_VIEW_H_

#include <string>

#include "compiler/ir/ir.h"

namespace flowc::driver {

std::string GraphToDot(const ir::Flow& flow);
std::string GraphToMermaid(const ir::Flow& flow);

}  // namespace flowc::driver

#endif  // FLOWC_DRIVER_GRAPH_VIEW_H_
