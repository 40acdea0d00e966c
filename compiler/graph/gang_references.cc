#include "compiler/graph/gang_references.h"

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "compiler/graph/references.h"
#include "compiler/graph/templating.h"

namespace flowc::graph {
namespace {

using diag::Code;
using Kind = ast::Value::Kind;

const ast::Decorator* FindDecorator(const std::vector<ast::Decorator>& decorators,
                                    std::string_view name) {
  for (const ast::Decorator& d : decorators) {
    if (d.name.name == name) return &d;
  }
  return nullptr;
}

// The string values of `@environment(vars={...})`; anything else was
// reported by the decorator checks.
std::vector<const ast::Value*> EnvValues(const ast::Decorator* environment) {
  std::vector<const ast::Value*> values;
  if (environment == nullptr) return values;
  for (const ast::Argument& arg : environment->arguments) {
    if (arg.name.name != "vars" || arg.value.kind != Kind::kMap) continue;
    for (const ast::MapEntry& entry : arg.value.entries) {
      if (entry.value.kind == Kind::kString) values.push_back(&entry.value);
    }
  }
  return values;
}

// What the reference stands for, for the help line.
std::string_view Meaning(std::string_view name) {
  if (name == "num_nodes") return "the number of pods of a gang";
  if (name == "node_index") return "the index of a pod in its gang";
  return "the address of a gang's node 0";
}

class Checker {
 public:
  explicit Checker(diag::Reporter& report) : report_(report) {}

  // Reports each gang reference of `literal` (a run string or an env value,
  // split by `split`) that step `step` would get.
  void Check(const ast::Value& literal, Text (*split)(std::string_view), std::string_view step,
             std::string_view where) {
    for (const Segment& s : split(literal.string).segments) {
      if (s.kind != Segment::Kind::kGang) continue;
      report_(Code::kGangOutsideParallel, LiteralRange(report_, literal, s.offset, s.length),
              fmt::format("'{{{{{}}}}}' is used {}, but step '{}' has no '@parallel'", s.text,
                          where, step))
          .SetHelp(fmt::format("'{{{{{}}}}}' is {}: use it only in a step with "
                               "'@parallel(nodes=...)'",
                               s.text, Meaning(s.text)));
    }
  }

 private:
  diag::Reporter& report_;
};

}  // namespace

void GangReferenceCheck::Step(const ast::Step& step) {
  if (FindDecorator(step.decorators, "parallel") != nullptr) return;
  Checker checker(report_);
  for (const ast::Run& run : step.runs) {
    if (run.command.kind == Kind::kString) {
      checker.Check(run.command, SplitReferences, step.name.name, "in a run");
    }
    for (const ast::Value& arg : run.command.items) {
      if (arg.kind == Kind::kString) checker.Check(arg, SplitReferences, step.name.name, "in a run");
    }
  }
  // A step's own @environment replaces the flow's.
  const ast::Decorator* own = FindDecorator(step.decorators, "environment");
  for (const ast::Value* value : EnvValues(own)) {
    checker.Check(*value, SplitGangReferences, step.name.name, "in '@environment'");
  }
  if (own == nullptr && !flow_env_reaches_a_step_) {
    flow_env_reaches_a_step_ = true;
    first_getting_flow_env_ = step.name.name;
  }
}

void GangReferenceCheck::Finish(const ast::Flow& flow) {
  if (!flow_env_reaches_a_step_) return;
  Checker checker(report_);
  for (const ast::Value* value : EnvValues(FindDecorator(flow.decorators, "environment"))) {
    checker.Check(*value, SplitGangReferences, first_getting_flow_env_,
                  "in the flow's '@environment'");
  }
}

}  // namespace flowc::graph
