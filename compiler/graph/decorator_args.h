// Checking the decorators written on the flow or on one step against the
// table (decorator_table.h): known names, the right place, no duplicates, and
// every argument of the right type, within its range and its Kubernetes
// rule. Internal to the decorator checks; decorators.cc calls it.
#ifndef FLOWC_GRAPH_DECORATOR_ARGS_H_
#define FLOWC_GRAPH_DECORATOR_ARGS_H_

#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/graph/decorator_table.h"
#include "compiler/parse/ast.h"

namespace flowc::graph::decorator_table {

// Checks a list of decorators written on one flow or step; returns the valid
// ones and clears `*ok` on any error. `placement` says which of the two it is.
std::vector<const ast::Decorator*> CheckDecorators(const std::vector<ast::Decorator>& decorators,
                                                   Placement placement, diag::Reporter& report,
                                                   bool* ok);

}  // namespace flowc::graph::decorator_table

#endif  // FLOWC_GRAPH_DECORATOR_ARGS_H_
