// Where gang references may appear: `{{num_nodes}}`, `{{node_index}}` and
// `{{main_addr}}` name values that only the pods of a @parallel step have
// (docs/language.md "Gang references"), so each use that reaches another step is an
// error, in its `run` or in the @environment it gets.
//
// Called by BuildGraph (ast_to_graph.cc); templating.cc finds the references.
#ifndef FLOWC_GRAPH_GANG_REFERENCES_H_
#define FLOWC_GRAPH_GANG_REFERENCES_H_

#include <string>

#include "compiler/diag/diagnostics.h"
#include "compiler/parse/ast.h"

namespace flowc::graph {

// Reports, at the reference, every gang reference in the run or the
// effective @environment of a step without @parallel. A reference in the
// flow's @environment is reported once, naming the first such step that gets
// it. Steps are checked one at a time, as BuildGraph meets them: it frees a
// step's decorators once the step is built.
class GangReferenceCheck {
 public:
  explicit GangReferenceCheck(diag::Reporter& report) : report_(report) {}
  // The step's run and its own @environment.
  void Step(const ast::Step& step);
  // The flow's @environment; after every step. `flow` keeps its decorators.
  void Finish(const ast::Flow& flow);

 private:
  diag::Reporter& report_;
  // The first step without @parallel that gets the flow's @environment.
  std::string first_getting_flow_env_;
  bool flow_env_reaches_a_step_ = false;
};

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_GANG_REFERENCES_H_
