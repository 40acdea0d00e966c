// Params: each declaration checked (duplicates, reserved names, types and
// defaults, docs/language.md "Grammar") and turned into a graph::Param.
//
// Used by BuildGraph (ast_to_graph.cc) before the steps, which refer to the
// params by name.
#ifndef FLOWC_GRAPH_PARAMS_H_
#define FLOWC_GRAPH_PARAMS_H_

#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/graph/graph.h"
#include "compiler/parse/ast.h"

namespace flowc::graph {

// The params of a flow, in declaration order, without the duplicates. Every
// error is reported; a param whose type or default is wrong is still returned
// so that references to it resolve.
std::vector<Param> BuildParams(const std::vector<ast::Param>& params, diag::Reporter& report);

// A string, a number or a boolean: what a list param or a foreach list holds.
bool IsScalarValue(const ast::Value& v);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_PARAMS_H_
