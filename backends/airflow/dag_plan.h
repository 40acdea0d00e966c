// How each foreach of a flow runs on Airflow (the plan the DAG writer follows).
//
// Airflow maps one level deep: a mapped task, or the tasks of a mapped task
// group, but nothing mapped inside a mapped group. MakePlan decides, for every
// foreach step, whether it is a mapped task, a mapped task group or written
// out once per element, and reports what Airflow cannot express. Then the
// DAG's structure follows from the plan: which tasks and groups each step
// becomes, once per binding of its unrolled foreaches, and the edges between
// them. airflow_backend.cc only renders it.
#ifndef FLOWC_BACKENDS_AIRFLOW_DAG_PLAN_H_
#define FLOWC_BACKENDS_AIRFLOW_DAG_PLAN_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::airflow {

// Every other foreach runs once per element of its literal list as tasks
// written out in the file.
enum class ForeachMode { kMappedTask, kMappedGroup, kUnrolled };

// By step index, read for the foreach steps only: a look-up for each task and
// edge, which in a map cost a cache miss a level of the tree at 100,000 steps.
struct Plan {
  std::vector<ForeachMode> mode;
  std::vector<std::vector<size_t>> body;  // the body's steps, in flow order
  // By step: the mapped foreach around it (DynamicOf), or kNotMapped. Found
  // once: the writer asks for every task and both ends of every edge.
  std::vector<size_t> dynamic;
  static constexpr size_t kNotMapped = static_cast<size_t>(-1);
  // The DAG's nodes, numbered 0..nodes-1 (TaskNode, GroupNode): step s's
  // tasks from first_task[s], a mapped group's instances from first_group[f].
  std::vector<size_t> first_task;
  std::vector<size_t> first_group;
  size_t nodes = 0;
};

// Which element of which unrolled foreach an instance of a step runs for,
// outermost first.
using Binding = std::vector<std::pair<size_t, size_t>>;

inline bool IsDynamic(ForeachMode mode) { return mode != ForeachMode::kUnrolled; }

// Fills `plan`; false (with diagnostics) when the flow cannot run on Airflow:
// a foreach Airflow cannot map, a scheduled DAG with a required param, a gang
// whose names would be too long.
bool MakePlan(const ir::Flow& flow, Plan& plan, diag::Reporter& report);

// --- Queries the DAG writer makes of a plan --------------------------------

// The unrolled foreaches of `chain` (a step's enclosing_foreach), in order.
std::vector<size_t> Unrolled(const Plan& plan, const std::vector<size_t>& chain);

// The mapped foreach (task or group) around step `s`, if any; Airflow maps
// one level deep, so there is at most one. Of a plan MakePlan accepted.
std::optional<size_t> DynamicOf(const Plan& plan, size_t s);

// The mapped task group holding step `s`, if any.
std::optional<size_t> GroupOf(const Plan& plan, size_t s);

// Every binding of `foreaches` (unrolled, outermost first) extending `base`.
std::vector<Binding> Bindings(const ir::Flow& flow, const std::vector<size_t>& foreaches,
                              const Binding& base);

// Whether two bindings agree on every foreach they both bind.
bool Compatible(const Binding& a, const Binding& b);

// The DAG's nodes: the task of step `s` in a binding of its unrolled
// foreaches, or the mapped group of foreach `f` in a binding of those around
// it. Each has a number below plan.nodes, by which the writer keeps its
// Python variable (not a key string: at 100,000 steps, formatting and hashing
// the keys of every edge cost more than writing the edges).
size_t TaskNode(const ir::Flow& flow, const Plan& plan, size_t s, const Binding& binding);
size_t GroupNode(const ir::Flow& flow, const Plan& plan, size_t f, const Binding& binding);

// The nodes that run `steps` at the DAG's level, each once, in order.
std::vector<size_t> DagNodes(const ir::Flow& flow, const Plan& plan,
                             const std::vector<size_t>& steps);

// `source >> targets` between nodes.
struct Edge {
  size_t source;
  std::vector<size_t> targets;
};

// The edges drawn at the level of mapped group `group` in binding `base`
// (nullopt: the DAG itself), each source once, in the order of the flow's
// steps: inside a group, the edges between its steps; at the DAG level, all
// others.
std::vector<Edge> PlanEdges(const ir::Flow& flow, const Plan& plan, std::optional<size_t> group,
                            const Binding& base);

}  // namespace flowc::backends::airflow

#endif  // FLOWC_BACKENDS_AIRFLOW_DAG_PLAN_H_
