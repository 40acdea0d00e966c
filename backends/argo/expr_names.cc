#include "backends/argo/expr_names.h"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <vector>

namespace flowc::backends::argo {
namespace {

// expr-lang parser/lexer/state.go identifier() and not().
constexpr std::array<std::string_view, 11> kOperatorWords = {
    "not", "in", "or", "and", "matches", "contains", "startsWith", "endsWith", "let", "if", "else"};
// expr-lang parser/parser.go parseSecondary().
constexpr std::array<std::string_view, 3> kConstants = {"true", "false", "nil"};

std::optional<size_t> InnermostForeach(const ir::Step& step) {
  if (step.enclosing_foreach.empty()) return std::nullopt;
  return step.enclosing_foreach.back();
}

}  // namespace

std::string ExprMisreading(std::string_view task) {
  // dag.go evaluateDependsLogic: strings.ReplaceAll(depends, "-", "_").
  std::string name(task);
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  for (std::string_view word : kOperatorWords) {
    if (name == word) return fmt::format("the operator '{}'", word);
  }
  for (std::string_view word : kConstants) {
    if (name == word) return fmt::format("the constant '{}'", word);
  }
  if (!name.empty() && name[0] >= '0' && name[0] <= '9') return "a number";
  return "";
}

bool CheckDependsNames(const ir::Flow& flow, diag::Reporter& report) {
  std::vector<bool> named(flow.steps.size(), false);
  for (size_t i = 0; i < flow.steps.size(); ++i) {
    const ir::Step& step = flow.steps[i];
    if (step.foreach) named[i] = true;
    for (size_t p : step.predecessors) {
      if (InnermostForeach(flow.steps[p]) == InnermostForeach(step)) named[p] = true;
    }
  }
  bool ok = true;
  for (size_t i = 0; i < flow.steps.size(); ++i) {
    const ir::Step& step = flow.steps[i];
    if (!named[i]) continue;
    std::string misreading = ExprMisreading(step.k8s_name);
    if (misreading.empty()) continue;
    ok = false;
    report(diag::Code::kUnsupportedByTarget, step.range,
           fmt::format("step '{}' is the Argo task '{}', and Argo's expression language would "
                       "read that name in a `depends` as {}",
                       step.name, step.k8s_name, misreading))
        .AddNote("Argo evaluates `depends` as an expr-lang expression in which each task name "
                 "('-' read as '_') is a variable; a word expr-lang reserves cannot be one")
        .SetHelp(fmt::format("rename step '{}'", step.name));
  }
  return ok;
}

}  // namespace flowc::backends::argo
