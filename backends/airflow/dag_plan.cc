#include "backends/airflow/dag_plan.h"

#include <fmt/format.h>

#include <optional>

namespace flowc::backends::airflow {

bool MakePlan(const ir::Flow& flow, Plan& plan, diag::Reporter& report) {
  bool ok = true;
  // One pass over the steps (not one per foreach): each joins the body of
  // every foreach that encloses it, in flow order.
  for (size_t s = 0; s < flow.steps.size(); ++s) {
    for (size_t f : flow.steps[s].enclosing_foreach) plan.body[f].push_back(s);
  }
  auto is_param = [&](size_t f) { return !flow.steps[f].foreach->param.empty(); };
  // Steps come in topological order, so a foreach is decided after every
  // foreach that encloses it.
  for (size_t f = 0; f < flow.steps.size(); ++f) {
    const ir::Step& step = flow.steps[f];
    if (!step.foreach) continue;
    std::optional<size_t> dynamic_ancestor;
    for (size_t a : step.enclosing_foreach) {
      if (IsDynamic(plan.mode[a])) dynamic_ancestor = a;
    }
    bool param_inside = false;
    for (size_t s : plan.body[f]) {
      if (flow.steps[s].foreach && is_param(s)) param_inside = true;
    }
    bool dynamic = is_param(f) || (!dynamic_ancestor && !param_inside);
    if (dynamic && dynamic_ancestor) {
      ok = false;
      report(diag::Code::kUnsupportedByTarget, step.range,
             fmt::format("the foreach of step '{}' over list param '{}' is nested in the foreach "
                         "of step '{}', and Airflow cannot map tasks inside a mapped task group",
                         step.name, step.foreach->param, flow.steps[*dynamic_ancestor].name))
          .SetHelp(
              "iterate one of the two over a literal list, which the airflow target "
              "writes out as one task per element");
      continue;
    }
    if (!dynamic && step.foreach->items.empty()) {
      ok = false;
      report(diag::Code::kUnsupportedByTarget, step.range,
             fmt::format("the foreach of step '{}' is over an empty list", step.name))
          .SetHelp("give the list at least one element");
      continue;
    }
    plan.mode[f] = !dynamic                   ? ForeachMode::kUnrolled
                   : plan.body[f].size() == 1 ? ForeachMode::kMappedTask
                                              : ForeachMode::kMappedGroup;
  }
  return ok;
}

}  // namespace flowc::backends::airflow
