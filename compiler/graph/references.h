// The `{{name}}` references of run strings (docs/language.md "References in strings"): each names a param, `item`
// (inside a foreach body) or `run_id`. Called by BuildGraph (ast_to_graph.cc) once the
// graph's shape is known; templating.cc splits the text into references.
#ifndef FLOWC_GRAPH_REFERENCES_H_
#define FLOWC_GRAPH_REFERENCES_H_

#include <cstddef>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/graph/graph.h"
#include "compiler/parse/ast.h"

namespace flowc::graph {

// Reports each reference of a step's run that names no param (with a did-you-mean), and each
// `{{item}}` outside a foreach body once the bodies are known. In a flow without errors, then
// warns of each param that no run and no foreach uses. Steps are checked one at a time, as
// BuildGraph builds them: it frees each step's run once the step is built, so what the end
// needs (where each `{{item}}` was written) is kept here.
class RunReferenceCheck {
 public:
  RunReferenceCheck(const Flow& flow, diag::Reporter& report) : flow_(flow), report_(report) {}
  // Step `i` of the flow, built from `step`: its command's references.
  void Step(size_t i, const ast::Step& step);
  // After every step: `{{item}}` outside a foreach body when `bodies_known` (the splits were
  // matched), then the params nothing uses.
  void Finish(bool bodies_known);

 private:
  struct ItemReference {
    size_t step;
    diag::SourceRange range;
  };
  const Flow& flow_;
  diag::Reporter& report_;
  std::vector<ItemReference> items_;
};

// The source range of bytes [offset, offset+length) of a decoded string literal: where a
// reference found in its decoded text was written.
diag::SourceRange LiteralRange(const diag::Reporter& report, const ast::Value& literal,
                               size_t offset, size_t length);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_REFERENCES_H_
