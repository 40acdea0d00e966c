// How a flow too big for one Argo DAG or one WorkflowTemplate is laid out: DAGs of more than
// 200 tasks become nested DAG templates, and templates beyond 200 (or beyond 1 MiB of YAML) go
// to further WorkflowTemplates, which the main one reaches through `templateRef`. Used by the
// Argo target (argo_backend.cc plans, split_render.cc writes); a flow under the limits never
// reaches this file's plans and renders as it always has.
//
// Why nesting keeps the run order exact. The language closes every split with a join, so each
// DAG's tasks form a series-parallel graph: a sequence of units, where a unit is a task or the
// arms between a split and its join. A nested DAG's task waits for every dependency of its
// tasks outside it, and what depends on any of its tasks waits for all of them
// (argo-workflows workflow/controller/dag.go: a DAG node completes when its tasks have, and a
// task starts when its `depends` hold). Both are already implied when the nested DAG holds a
// contiguous run of one sequence's units, or some of one split's arms: the units of a sequence
// follow each other, and every arm starts after the split and ends before the join. So only
// such groups are nested, and every step still starts the moment its own predecessors are done.
#ifndef FLOWC_BACKENDS_ARGO_SPLIT_H_
#define FLOWC_BACKENDS_ARGO_SPLIT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "backends/argo/layout.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::argo {

// Argo v4's CRD: `maxItems` of a WorkflowTemplate's templates and of a DAG's tasks.
inline constexpr size_t kMaxTemplates = 200;
inline constexpr size_t kMaxTasks = 200;
// What one WorkflowTemplate's YAML may take: under 1 MiB, well inside what etcd stores (1.5 MiB
// a request), with room for the API server's own fields (managedFields, status).
inline constexpr size_t kMaxTemplateBytes = 1000 * 1000;
// A WorkflowTemplate's name (workflow/validate/validate.go maxCharsInObjectName).
inline constexpr size_t kMaxObjectName = 63;

// One task of a DAG template.
struct DagEntry {
  enum class Kind { kStep, kBody, kNested };
  Kind kind;
  size_t index;  // the step, the foreach step whose body the task runs, or the nested DAG
};

// A DAG template that holds part of a scope's tasks (a scope: the entrypoint's DAG, or a foreach
// body's).
struct NestedDag {
  std::string name;
  std::optional<size_t> scope;  // the foreach whose body holds it, or none
  std::vector<DagEntry> entries;
};

// The DAG templates of every scope. A scope of at most kMaxTasks tasks keeps one DAG.
class DagPlan {
 public:
  // Names the nested DAGs through `layout`, after every name the layout has.
  DagPlan(const ir::Flow& flow, Layout& layout);

  bool nests() const { return !nested_.empty(); }
  // The tasks of the scope's own DAG (the entrypoint, or the body of a foreach step).
  const std::vector<DagEntry>& root(std::optional<size_t> scope) const {
    return scope ? body_roots_[*scope] : entry_root_;
  }
  const std::vector<NestedDag>& nested() const { return nested_; }

  // The task name of an entry.
  const std::string& Name(const DagEntry& entry) const;
  // What the task of `entry` waits for in the DAG that holds it (`nested`: that DAG, or none for
  // the scope's own), in the order of the steps' predecessors.
  std::vector<std::string> Depends(std::optional<size_t> nested, const DagEntry& entry) const;

 private:
  struct Unit;
  // A task of a scope: a step's own, or the task that runs a foreach's body.
  struct Task {
    bool body;
    size_t step;
  };
  static constexpr int kRoot = -1;

  void PlanScope(std::optional<size_t> scope, size_t first, std::optional<size_t> stop);
  Unit Sequence(size_t step, std::optional<size_t> stop) const;
  std::vector<DagEntry> Pack(const Unit& unit, std::optional<size_t> scope);
  std::vector<DagEntry> Fit(std::vector<std::vector<DagEntry>> parts, std::optional<size_t> scope);
  DagEntry Nest(std::vector<DagEntry> entries, std::optional<size_t> scope);
  void Leaves(const DagEntry& entry, std::vector<Task>& out) const;
  std::vector<Task> Predecessors(const Task& task) const;
  int& ParentOf(const Task& task) {
    return task.body ? body_parent_[task.step] : step_parent_[task.step];
  }
  int ParentOf(const Task& task) const {
    return task.body ? body_parent_[task.step] : step_parent_[task.step];
  }

  const ir::Flow& flow_;
  Layout& layout_;
  std::vector<DagEntry> entry_root_;
  std::vector<std::vector<DagEntry>> body_roots_;  // per step; empty unless a foreach
  std::vector<NestedDag> nested_;
  // Which DAG holds each task and each nested DAG: a nested DAG's index, or kRoot.
  std::vector<int> step_parent_;
  std::vector<int> body_parent_;
  std::vector<int> nested_parent_;
};

// What goes into one WorkflowTemplate whole: a scope's DAG, a nested DAG, or a step's templates
// (a bounded gang's three name each other).
struct TemplateUnit {
  enum class Kind { kScopeDag, kNestedDag, kStep };
  Kind kind;
  std::optional<size_t> scope;  // kScopeDag: the foreach whose body it runs, or none
  size_t index = 0;             // kNestedDag: the nested DAG; kStep: the step
};

// Every template of a split flow, in the order the one WorkflowTemplate of a small flow has
// them: the entrypoint's DAG (and the DAGs nested in it), each body's, each step's.
std::vector<TemplateUnit> TemplateUnits(const ir::Flow& flow, const Layout& layout,
                                        const DagPlan& plan);

// How many templates a unit has.
size_t TemplateCount(const ir::Flow& flow, const TemplateUnit& unit);

// The name of the WorkflowTemplate that holds part `part` of a flow's templates: the flow's own
// for part 0, `<flow>-part-<part>` for the others, the flow's name cut to fit 63 characters.
std::string PartName(const ir::Flow& flow, size_t part);

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_SPLIT_H_
