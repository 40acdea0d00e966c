#include "backends/airflow/dag_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>

#include "backends/airflow/k8s_delivery.h"
#include "backends/k8s/jobset.h"
#include "backends/k8s/trainjob.h"
#include "compiler/support/flat_map.h"

namespace flowc::backends::airflow {

namespace {

// What Airflow cannot run besides a foreach: a scheduled DAG with a required
// param, and a gang whose names would be too long for Kubernetes.
bool CheckFlow(const ir::Flow& flow, diag::Reporter& report) {
  bool ok = true;
  if (flow.schedule) {
    for (const ir::Param& param : flow.params) {
      if (param.default_json) continue;
      ok = false;
      report(diag::Code::kUnsupportedByTarget, param.range,
             fmt::format("param '{}' has no default, and Airflow cannot schedule a DAG with a "
                         "required param",
                         param.name))
          .SetHelp(fmt::format("give '{}' a default, or remove '@schedule'", param.name));
    }
  }
  for (const ir::Step& step : flow.steps) {
    if (!step.parallel) continue;
    size_t length = GangBaseName(flow, step).size() + kGangSuffixLength;
    constexpr const char* kForm = "<flow>-<step>-<8 hex digits>";
    if (step.trainjob) {
      ok = k8s::CheckTrainJobNames(step, length, kForm, report) && ok;
    } else {
      k8s::JobSetName name{length, 1, 1, kForm};
      ok = k8s::CheckJobSetNames(flow, step, name, report) && ok;
    }
  }
  return ok;
}

// How many bindings the unrolled foreaches of `chain` have: the product of
// their lists' lengths.
size_t BindingCount(const ir::Flow& flow, const Plan& plan, const std::vector<size_t>& chain) {
  size_t count = 1;
  for (size_t f : Unrolled(plan, chain)) count *= flow.steps[f].foreach->items.size();
  return count;
}

// The position of `binding` among Bindings(flow, Unrolled(plan, chain), {}),
// which vary the innermost foreach fastest.
size_t BindingOrdinal(const ir::Flow& flow, const Plan& plan, const std::vector<size_t>& chain,
                      const Binding& binding) {
  size_t ordinal = 0;
  for (size_t f : chain) {
    if (plan.mode[f] != ForeachMode::kUnrolled) continue;
    size_t element = 0;
    for (const auto& [g, i] : binding) {
      if (g == f) element = i;
    }
    ordinal = ordinal * flow.steps[f].foreach->items.size() + element;
  }
  return ordinal;
}

// Finds the mapped foreach around each step, and numbers the DAG's nodes:
// each step's tasks, then, after a mapped group's first step, that group's
// instances.
void IndexSteps(const ir::Flow& flow, Plan& plan) {
  plan.dynamic.assign(flow.steps.size(), Plan::kNotMapped);
  plan.first_task.assign(flow.steps.size(), 0);
  plan.first_group.assign(flow.steps.size(), 0);
  plan.nodes = 0;
  for (size_t s = 0; s < flow.steps.size(); ++s) {
    const ir::Step& step = flow.steps[s];
    for (size_t f : step.enclosing_foreach) {
      if (IsDynamic(plan.mode[f])) {
        plan.dynamic[s] = f;
        break;
      }
    }
    plan.first_task[s] = plan.nodes;
    plan.nodes += BindingCount(flow, plan, step.enclosing_foreach);
    if (step.foreach && plan.mode[s] == ForeachMode::kMappedGroup) {
      plan.first_group[s] = plan.nodes;
      plan.nodes += BindingCount(flow, plan, step.enclosing_foreach);
    }
  }
}

}  // namespace

bool MakePlan(const ir::Flow& flow, Plan& plan, diag::Reporter& report) {
  bool ok = CheckFlow(flow, report);
  // Each foreach is decided below. One reported and skipped counts as mapped,
  // so that a foreach over a param nested in it is reported as well.
  plan.mode.assign(flow.steps.size(), ForeachMode::kMappedTask);
  plan.body.assign(flow.steps.size(), {});
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
  if (ok) IndexSteps(flow, plan);
  return ok;
}

std::vector<size_t> Unrolled(const Plan& plan, const std::vector<size_t>& chain) {
  std::vector<size_t> out;
  for (size_t f : chain) {
    if (plan.mode[f] == ForeachMode::kUnrolled) out.push_back(f);
  }
  return out;
}

std::optional<size_t> DynamicOf(const Plan& plan, size_t s) {
  if (plan.dynamic[s] == Plan::kNotMapped) return std::nullopt;
  return plan.dynamic[s];
}

std::optional<size_t> GroupOf(const Plan& plan, size_t s) {
  std::optional<size_t> f = DynamicOf(plan, s);
  if (f && plan.mode[*f] == ForeachMode::kMappedGroup) return f;
  return std::nullopt;
}

std::vector<Binding> Bindings(const ir::Flow& flow, const std::vector<size_t>& foreaches,
                              const Binding& base) {
  std::vector<Binding> out = {base};
  for (size_t f : foreaches) {
    bool bound = false;
    for (const auto& entry : base) bound = bound || entry.first == f;
    if (bound) continue;
    std::vector<Binding> next;
    for (const Binding& b : out) {
      for (size_t i = 0; i < flow.steps[f].foreach->items.size(); ++i) {
        Binding extended = b;
        extended.emplace_back(f, i);
        next.push_back(std::move(extended));
      }
    }
    out = std::move(next);
  }
  return out;
}

bool Compatible(const Binding& a, const Binding& b) {
  for (const auto& [f, i] : a) {
    for (const auto& [g, j] : b) {
      if (f == g && i != j) return false;
    }
  }
  return true;
}

size_t TaskNode(const ir::Flow& flow, const Plan& plan, size_t s, const Binding& binding) {
  return plan.first_task[s] + BindingOrdinal(flow, plan, flow.steps[s].enclosing_foreach, binding);
}

size_t GroupNode(const ir::Flow& flow, const Plan& plan, size_t f, const Binding& binding) {
  return plan.first_group[f] + BindingOrdinal(flow, plan, flow.steps[f].enclosing_foreach, binding);
}

namespace {

// The nodes an instance of step `s` is at the level of `group` (nullopt: the
// DAG itself), with their bindings: its own tasks, or the mapped groups
// holding it.
std::vector<std::pair<Binding, size_t>> Nodes(const ir::Flow& flow, const Plan& plan, size_t s,
                                              std::optional<size_t> group, const Binding& base) {
  std::vector<std::pair<Binding, size_t>> out;
  std::optional<size_t> g = GroupOf(plan, s);
  if (g && g != group) {
    for (const Binding& b : Bindings(flow, Unrolled(plan, flow.steps[*g].enclosing_foreach), {})) {
      out.emplace_back(b, GroupNode(flow, plan, *g, b));
    }
    return out;
  }
  for (const Binding& b : Bindings(flow, Unrolled(plan, flow.steps[s].enclosing_foreach), base)) {
    out.emplace_back(b, TaskNode(flow, plan, s, b));
  }
  return out;
}

// Node numbers are dense, so they are mixed before FlatMap takes the low bits.
struct NodeHash {
  size_t operator()(size_t node) const { return node * 0x9E3779B97F4A7C15ull; }
};

}  // namespace

std::vector<size_t> DagNodes(const ir::Flow& flow, const Plan& plan,
                             const std::vector<size_t>& steps) {
  std::vector<size_t> out;
  FlatMap<size_t, bool, NodeHash> seen;
  for (size_t s : steps) {
    for (const auto& [binding, node] : Nodes(flow, plan, s, std::nullopt, {})) {
      if (seen.try_emplace(node, true).second) out.push_back(node);
    }
  }
  return out;
}

std::vector<Edge> PlanEdges(const ir::Flow& flow, const Plan& plan, std::optional<size_t> group,
                            const Binding& base) {
  std::vector<Edge> edges;
  FlatMap<size_t, size_t, NodeHash> edge_of;  // by source; the order is `edges`'s
  // A group's edges start at its own steps: visiting only those keeps the
  // whole DAG linear in the number of steps.
  std::vector<size_t> all;
  if (!group) {
    all.resize(flow.steps.size());
    for (size_t u = 0; u < all.size(); ++u) all[u] = u;
  }
  auto group_of = [&](size_t s) { return GroupOf(plan, s); };
  for (size_t u : group ? plan.body[*group] : all) {
    bool u_in = group ? group_of(u) == group : true;
    for (size_t v : flow.steps[u].next) {
      bool v_in = group ? group_of(v) == group : true;
      // Inside a group: edges between its steps. At the DAG level: all
      // others (an edge between two steps of one group is drawn inside).
      bool inside = group_of(u) && group_of(u) == group_of(v);
      if (group ? !(u_in && v_in) : inside) continue;
      for (const auto& [bu, nu] : Nodes(flow, plan, u, group, base)) {
        for (const auto& [bv, nv] : Nodes(flow, plan, v, group, base)) {
          if (!Compatible(bu, bv)) continue;
          auto [index, fresh] = edge_of.try_emplace(nu, edges.size());
          if (fresh) edges.push_back(Edge{nu, {}});
          std::vector<size_t>& targets = edges[*index].targets;
          if (std::find(targets.begin(), targets.end(), nv) == targets.end()) {
            targets.push_back(nv);
          }
        }
      }
    }
  }
  return edges;
}

}  // namespace flowc::backends::airflow
