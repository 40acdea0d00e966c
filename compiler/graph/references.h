// The `{{name}}` references of run strings (DSL.md "Templating"): each names a param, `item`
// (inside a foreach body) or `run_id`. Called by BuildGraph (ast_to_graph.cc) once the
// graph's shape is known; templating.cc splits the text into references.
#ifndef FLOWC_GRAPH_REFERENCES_H_
#define FLOWC_GRAPH_REFERENCES_H_

#include <cstddef>

#include "compiler/diag/diagnostics.h"
#include "compiler/graph/graph.h"
#include "compiler/parse/ast.h"

namespace flowc::graph {

// Reports each reference of a step's run that names no param (with a did-you-mean), and each
// `{{item}}` outside a foreach body when `bodies_known` (the splits were matched). In a flow
// without errors, then warns of each param that no run and no foreach uses. `ast` holds the
// run literals the steps of `flow` were built from, step for step.
void CheckRunReferences(const Flow& flow, const ast::Flow& ast, bool bodies_known,
                        diag::Reporter& report);

// The source range of bytes [offset, offset+length) of a decoded string literal: where a
// reference found in its decoded text was written.
diag::SourceRange LiteralRange(const diag::Reporter& report, const ast::Value& literal,
                               size_t offset, size_t length);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_REFERENCES_H_
