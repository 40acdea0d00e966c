// How a flow too big for one Argo WorkflowTemplate runs: its graph is cut into parts, and each
// part runs as a Workflow of its own, which the DAG that holds the part creates and waits for
// (a `resource` template: action create, a Workflow with `workflowTemplateRef` to the part's
// WorkflowTemplate `<flow>-part-<n>`, owned by the workflow that creates it, labelled with its
// name and run with its service account). Every WorkflowTemplate that creates parts has an exit
// handler that deletes those still running, so that `argo stop` stops the whole run
// (split_render.cc StopParts). Used by the Argo target (argo_backend.cc plans, split_render.cc
// writes); a flow within one WorkflowTemplate never reaches this file's plans and renders as it
// always has.
//
// Why Workflows and not templateRef: the controller copies each template it resolves through a
// templateRef into the running Workflow's status.storedTemplates, and the WorkflowTemplate it
// runs into status.storedWorkflowTemplateSpec (argo-workflows pkg/apis/workflow/v1alpha1/
// workflow_types.go SetStoredTemplate, workflow/templateresolution/context.go); node status
// offloading moves status.nodes only. One Workflow that reaches every template of a huge flow
// outgrows what etcd stores. A Workflow per part stores its own part and its own nodes only.
//
// Why the cut keeps the run order exact. The language closes every split with a join, so each
// DAG's tasks form a series-parallel graph: a sequence of units, where a unit is a task or the
// arms between a split and its join. A part's task waits for every dependency of its tasks
// outside it, and what depends on any of its tasks waits for all of them (the child Workflow
// succeeds when its DAG has: argo-workflows workflow/controller/dag.go). Both are already
// implied when a part holds a contiguous run of one sequence's units, or some of one split's
// arms. So only such groups become parts, and every step still starts the moment its own
// predecessors are done.
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
// What one WorkflowTemplate's YAML may take before a flow is split: under 1 MiB, well inside
// what etcd stores (1.5 MiB a request), with room for the API server's own fields.
inline constexpr size_t kMaxTemplateBytes = 1000 * 1000;
// What the templates of one part may take. A Workflow stores its WorkflowTemplate's spec
// (status.storedWorkflowTemplateSpec) beside its own node status, so a part's templates keep
// room for its nodes within the same object: at most 196 templates (its DAG, the template that
// creates further parts and the exit handler that stops them make 199), at most 400 kB of YAML.
inline constexpr size_t kPartTemplates = kMaxTemplates - 4;
inline constexpr size_t kPartBytes = 400 * 1000;
// A WorkflowTemplate's name (workflow/validate/validate.go maxCharsInObjectName).
inline constexpr size_t kMaxObjectName = 63;

// What a task costs the WorkflowTemplate that holds it: the templates it brings (its step's, or
// a body's DAG and all its body's) and their YAML bytes, its own task's included.
struct Weight {
  size_t templates = 0;
  size_t bytes = 0;
  Weight& operator+=(const Weight& other) {
    templates += other.templates;
    bytes += other.bytes;
    return *this;
  }
  bool Fits(const Weight& budget) const {
    return templates <= budget.templates && bytes <= budget.bytes;
  }
};

// One task of a DAG template.
struct DagEntry {
  enum class Kind { kStep, kBody, kPart };
  Kind kind;
  size_t index;  // the step, the foreach step whose body the task runs, or the part
};

// A part: a group of one scope's tasks (a scope: the entrypoint's DAG, or a foreach body's) that
// runs as a Workflow of its own. Its WorkflowTemplate's entrypoint is a DAG of its tasks, named
// as the task that creates it.
struct Part {
  std::string task;
  std::string workflow_template;
  std::optional<size_t> scope;
  std::vector<DagEntry> entries;
};

// The measured sizes of a flow's templates and tasks (Renderer::Measure).
struct Sizes {
  std::vector<size_t> step_templates;  // per step: its template(s)' YAML bytes
  std::vector<size_t> step_tasks;      // per step: its task's, as an unsplit DAG writes it
  std::vector<size_t> body_tasks;      // per step: the task running its body; 0 unless a foreach
  size_t header = 0;                   // a WorkflowTemplate around no template
};

// The DAG templates of every scope, and the parts cut from them.
class DagPlan {
 public:
  // Plans nothing (`splits()` is false) when the flow fits one WorkflowTemplate: at most
  // kMaxTemplates templates, kMaxTemplateBytes of YAML and kMaxTasks tasks a DAG. Otherwise cuts
  // parts, naming their tasks through `layout` after every name the layout has.
  DagPlan(const ir::Flow& flow, Layout& layout, const Sizes& sizes);

  bool splits() const { return splits_; }
  // The tasks of the scope's own DAG (the entrypoint, or the body of a foreach step).
  const std::vector<DagEntry>& root(std::optional<size_t> scope) const {
    return scope ? body_roots_[*scope] : entry_root_;
  }
  const std::vector<Part>& parts() const { return parts_; }
  // The template that creates a part's Workflow (one in each WorkflowTemplate that needs it).
  const std::string& create_name() const { return create_name_; }
  // The exit handler that deletes the parts' Workflows still running when the Workflow that
  // created them ends (split_render.cc StopParts).
  const std::string& stop_name() const { return stop_name_; }

  // The task name of an entry.
  const std::string& Name(const DagEntry& entry) const;
  // What the task of `entry` waits for in the DAG that holds it (`part`: that part's DAG, or
  // none for the scope's own), in the order of the steps' predecessors.
  std::vector<std::string> Depends(std::optional<size_t> part, const DagEntry& entry) const;

 private:
  struct Unit;
  // A task of a scope: a step's own, or the task that runs a foreach's body.
  struct Task {
    bool body;
    size_t step;
  };
  static constexpr int kRoot = -1;

  bool PlanScope(std::optional<size_t> scope, size_t first, std::optional<size_t> stop,
                 const Weight& budget);
  Unit Sequence(size_t step, std::optional<size_t> stop) const;
  std::vector<DagEntry> Pack(const Unit& unit, std::optional<size_t> scope, const Weight& budget);
  std::vector<DagEntry> Fit(std::vector<std::vector<DagEntry>> groups, std::optional<size_t> scope,
                            const Weight& budget);
  DagEntry Cut(std::vector<DagEntry> entries, std::optional<size_t> scope);
  Weight WeightOf(const DagEntry& entry) const;
  Weight WeightOf(const std::vector<DagEntry>& entries) const;
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
  const Sizes& sizes_;
  bool splits_ = false;
  std::string create_name_;
  std::string stop_name_;
  std::vector<DagEntry> entry_root_;
  std::vector<std::vector<DagEntry>> body_roots_;  // per step; empty unless a foreach
  std::vector<Weight> body_weight_;                // per step: its body's task, as planned
  std::vector<Part> parts_;
  // Which DAG holds each task and each part: a part's index, or kRoot.
  std::vector<int> step_parent_;
  std::vector<int> body_parent_;
  std::vector<int> part_parent_;
};

// The name of the WorkflowTemplate that holds part `part` of a flow: the flow's own for part 0,
// `<flow>-part-<part>` for the others, the flow's name cut to fit 63 characters.
std::string PartName(const ir::Flow& flow, size_t part);

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_SPLIT_H_
