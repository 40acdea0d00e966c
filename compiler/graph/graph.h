// The step graph: the AST with names resolved, decorators checked and merged,
// and every split matched with its join (docs/language.md "`next` and the graph", "Decorators").
//
// Built by BuildGraph (ast_to_graph.cc) and consumed only by the IR lowering,
// which takes it by value and frees each step as it lowers it.
// A graph that BuildGraph returns is valid: every rule of docs/language.md holds, so
// the lowering never has to report an error.
#ifndef FLOWC_GRAPH_GRAPH_H_
#define FLOWC_GRAPH_GRAPH_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/graph/decorators.h"
#include "compiler/graph/param_type.h"
#include "compiler/graph/templating.h"
#include "compiler/parse/ast.h"

namespace flowc::graph {

using diag::SourceRange;

struct Param {
  using Type = ParamType;
  std::string name;
  Type type = Type::kStr;
  std::optional<ast::Value> default_value;
  SourceRange range;
};

struct Step {
  std::string name;
  std::string k8s_name;
  SourceRange range;  // the step's name

  // `run`: a shell string (["/bin/sh", "-c", text]) or an argv as written.
  bool shell = false;
  std::vector<Text> command;

  // Never null in a graph BuildGraph returns. Held apart from the step so that
  // the lowering, which consumes the graph, frees each step's configuration
  // (about 1 KB, the bulk of a step) as soon as its pod is lowered.
  std::unique_ptr<StepConfig> config;

  std::vector<size_t> next;          // successors, as written
  std::vector<size_t> predecessors;  // in declaration order
  // `next s foreach X`: X is a list param or a literal list.
  bool foreach = false;
  std::string foreach_param;
  std::vector<ast::Value> foreach_items;
  // For a split (branch or foreach): the step that closes it.
  std::optional<size_t> join;
  // Foreach steps whose body holds this step, outermost first.
  std::vector<size_t> enclosing_foreach;
};

struct Flow {
  std::string name;
  std::string k8s_name;
  SourceRange range;
  std::vector<Param> params;
  std::optional<ScheduleConfig> schedule;
  std::optional<QueueConfig> queue;  // the flow's own @queue
  std::vector<Step> steps;    // declaration order
  std::vector<size_t> order;  // topological, ties in declaration order
  size_t start = 0;
  size_t end = 0;
};

// Checks `flow` against every rule of the language. Returns the graph, or
// nullopt after reporting every error found. Consumes the AST: each step's
// decorators are freed once the step is built.
std::optional<Flow> BuildGraph(ast::Flow flow, diag::Reporter& report);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_GRAPH_H_
