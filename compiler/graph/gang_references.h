// Where gang references may appear: `{{num_nodes}}`, `{{node_index}}` and
// `{{main_addr}}` name values that only the pods of a @parallel step have
// (DSL.md "Gang references"), so each use that reaches another step is an
// error, in its `run` or in the @environment it gets.
//
// Called by BuildGraph (ast_to_graph.cc); templating.cc finds the references.
#ifndef FLOWC_GRAPH_GANG_REFERENCES_H_
#define FLOWC_GRAPH_GANG_REFERENCES_H_

#include "compiler/diag/diagnostics.h"
#include "compiler/parse/ast.h"

namespace flowc::graph {

// Reports, at the reference, every gang reference in the run or the
// effective @environment of a step without @parallel. A reference in the
// flow's @environment is reported once, naming the first such step that gets
// it.
void CheckGangReferences(const ast::Flow& flow, diag::Reporter& report);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_GANG_REFERENCES_H_
