#include "backends/argo/split.h"

#include <fmt/format.h>

#include <string_view>
#include <utility>

#include "backends/argo/argo_backend.h"
#include "backends/argo/layout.h"

namespace flowc::backends::argo {
namespace {

constexpr const char* kPartSuffix = "-part";
// Room left in a part's task name for the suffix and a `-<n>` that tells two apart.
constexpr size_t kPartBase = kMaxObjectName - 5 - 4;
// The template that creates a part's Workflow (Layout::ClaimName makes it unique).
constexpr const char* kCreateName = "create-part";
constexpr const char* kStopName = "stop-parts";
// The YAML a part's task may take in its DAG, its `depends` included (an upper bound: a task
// names the part's WorkflowTemplate and hands on the element).
constexpr size_t kPartTaskBytes = 2048;
// A DAG template's YAML besides its tasks (name, inputs, the keys around the tasks).
constexpr size_t kDagBytes = 256;
// What a task's `depends` may grow by in a split flow: a predecessor's task may be a part's,
// whose name is longer than a step's by at most this.
constexpr size_t kDependsSlack = 16;

Weight operator-(Weight a, const Weight& b) {
  a.templates -= b.templates;
  a.bytes -= b.bytes;
  return a;
}

Weight operator+(Weight a, const Weight& b) { return a += b; }

}  // namespace

// A scope's graph as series-parallel units: a task, a sequence of units (each after the one
// before it), or the arms of a split (each a sequence, all between the split and its join).
struct DagPlan::Unit {
  enum class Kind { kTask, kSequence, kArms };
  Kind kind = Kind::kSequence;
  DagEntry entry{DagEntry::Kind::kStep, 0};
  std::vector<Unit> children;
};

DagPlan::DagPlan(const ir::Flow& flow, Layout& layout, const Sizes& sizes)
    : flow_(flow),
      layout_(layout),
      sizes_(sizes),
      body_roots_(flow.steps.size()),
      body_weight_(flow.steps.size()),
      step_parent_(flow.steps.size(), kRoot),
      body_parent_(flow.steps.size(), kRoot) {
  // Every scope's tasks, in the order of the steps (one pass: a flow has many scopes).
  for (size_t i = 0; i < flow.steps.size(); ++i) {
    const std::optional<size_t> scope = Layout::ScopeOf(flow.steps[i]);
    std::vector<DagEntry>& root = scope ? body_roots_[*scope] : entry_root_;
    root.push_back({DagEntry::Kind::kStep, i});
    if (flow.steps[i].foreach) root.push_back({DagEntry::Kind::kBody, i});
  }
  // A body's task weighs its DAG and everything in it: inner bodies first (an inner foreach
  // step comes after the outer one).
  const std::vector<size_t>& foreach_steps = layout.foreach_steps();
  auto body_weight = [&](size_t foreach_step) {
    body_weight_[foreach_step] =
        Weight{1, kDagBytes + sizes.body_tasks[foreach_step]} + WeightOf(body_roots_[foreach_step]);
  };
  for (auto it = foreach_steps.rbegin(); it != foreach_steps.rend(); ++it) body_weight(*it);
  // Within one WorkflowTemplate, nothing is planned: the flow renders as it always has.
  Weight whole = Weight{1, sizes.header + kDagBytes} + WeightOf(entry_root_);
  bool tasks_fit = entry_root_.size() <= kMaxTasks;
  for (size_t foreach_step : foreach_steps)
    tasks_fit &= body_roots_[foreach_step].size() <= kMaxTasks;
  if (tasks_fit && whole.Fits({kMaxTemplates, kMaxTemplateBytes})) return;
  splits_ = true;
  create_name_ = layout.ClaimName(kCreateName);
  stop_name_ = layout.ClaimName(kStopName);
  // Each body's DAG keeps room for itself in the budget of whatever holds its task.
  const Weight budget{kPartTemplates, kPartBytes};
  for (auto it = foreach_steps.rbegin(); it != foreach_steps.rend(); ++it) {
    const ir::Foreach& foreach = *flow.steps[*it].foreach;
    PlanScope(*it, foreach.body, foreach.join,
              budget - Weight{1, kDagBytes + sizes.body_tasks[*it]});
    body_weight(*it);
  }
  PlanScope(std::nullopt, 0, std::nullopt, budget);
}

const std::string& DagPlan::Name(const DagEntry& entry) const {
  switch (entry.kind) {
    case DagEntry::Kind::kStep:
      return layout_.step_name(entry.index);
    case DagEntry::Kind::kBody:
      return layout_.body_name(entry.index);
    case DagEntry::Kind::kPart:
      break;
  }
  return parts_[entry.index].task;
}

std::vector<std::string> DagPlan::Depends(std::optional<size_t> part, const DagEntry& entry) const {
  const int container = part ? static_cast<int>(*part) : kRoot;
  std::vector<Task> leaves;
  Leaves(entry, leaves);
  std::vector<std::string> depends;
  for (const Task& leaf : leaves) {
    for (const Task& predecessor : Predecessors(leaf)) {
      // The task or part that holds the predecessor in `container`, if any does.
      DagEntry at{predecessor.body ? DagEntry::Kind::kBody : DagEntry::Kind::kStep,
                  predecessor.step};
      int parent = ParentOf(predecessor);
      bool outside = false;
      while (parent != container) {
        if (parent == kRoot) {
          outside = true;
          break;
        }
        at = {DagEntry::Kind::kPart, static_cast<size_t>(parent)};
        parent = part_parent_[parent];
      }
      if (outside || (at.kind == entry.kind && at.index == entry.index)) continue;
      const std::string& name = Name(at);
      bool seen = false;
      for (const std::string& d : depends) seen |= d == name;
      if (!seen) depends.push_back(name);
    }
  }
  return depends;
}

bool DagPlan::PlanScope(std::optional<size_t> scope, size_t first, std::optional<size_t> stop,
                        const Weight& budget) {
  std::vector<DagEntry>& root = scope ? body_roots_[*scope] : entry_root_;
  if (root.size() <= kMaxTasks && WeightOf(root).Fits(budget)) return true;
  const size_t tasks = root.size();
  const size_t parts_before = parts_.size();
  std::vector<DagEntry> packed = Pack(Sequence(first, stop), scope, budget);
  std::vector<Task> leaves;
  for (const DagEntry& entry : packed) Leaves(entry, leaves);
  if (leaves.size() != tasks) {
    // The walk from the scope's first step missed a task, which the language's graphs do not
    // allow: keep the one DAG (more than Argo takes) rather than drop one.
    parts_.resize(parts_before);
    part_parent_.resize(parts_before);
    for (const DagEntry& entry : root) {
      ParentOf({entry.kind == DagEntry::Kind::kBody, entry.index}) = kRoot;
    }
    return false;
  }
  root = std::move(packed);
  return true;
}

DagPlan::Unit DagPlan::Sequence(size_t step, std::optional<size_t> stop) const {
  Unit sequence;
  std::optional<size_t> at = step;
  while (at && at != stop) {
    const ir::Step& s = flow_.steps[*at];
    Unit task{Unit::Kind::kTask, {DagEntry::Kind::kStep, *at}, {}};
    sequence.children.push_back(task);
    if (s.foreach) {
      task.entry.kind = DagEntry::Kind::kBody;
      sequence.children.push_back(task);
      at = s.foreach->join;
    } else if (s.is_branch() && s.join) {
      Unit arms{Unit::Kind::kArms, {}, {}};
      for (size_t next : s.next) arms.children.push_back(Sequence(next, s.join));
      sequence.children.push_back(std::move(arms));
      at = s.join;
    } else if (s.next.size() == 1) {
      at = s.next.front();
    } else {
      at.reset();
    }
  }
  return sequence;
}

std::vector<DagEntry> DagPlan::Pack(const Unit& unit, std::optional<size_t> scope,
                                    const Weight& budget) {
  if (unit.kind == Unit::Kind::kTask) return {unit.entry};
  std::vector<std::vector<DagEntry>> groups;
  groups.reserve(unit.children.size());
  for (const Unit& child : unit.children) groups.push_back(Pack(child, scope, budget));
  return Fit(std::move(groups), scope, budget);
}

// Each group is kept whole (a unit of a sequence, or an arm): it stays in the DAG as its tasks,
// or goes into one part with the groups next to it. Groups are cut from the first on, as few as
// bring the DAG within `budget`; a group over the budget on its own becomes a part alone.
std::vector<DagEntry> DagPlan::Fit(std::vector<std::vector<DagEntry>> groups,
                                   std::optional<size_t> scope, const Weight& budget) {
  std::vector<Weight> weights;
  weights.reserve(groups.size());
  Weight remaining;
  for (const std::vector<DagEntry>& group : groups) {
    weights.push_back(WeightOf(group));
    remaining += weights.back();
  }
  std::vector<DagEntry> out;
  Weight kept;
  size_t i = 0;
  while (i < groups.size()) {
    if ((kept + remaining).Fits(budget)) {
      for (; i < groups.size(); ++i) out.insert(out.end(), groups[i].begin(), groups[i].end());
      break;
    }
    std::vector<DagEntry> chunk;
    Weight taken;
    while (i < groups.size() && (chunk.empty() || (taken + weights[i]).Fits(budget))) {
      chunk.insert(chunk.end(), groups[i].begin(), groups[i].end());
      taken += weights[i];
      remaining = remaining - weights[i];
      ++i;
    }
    if (chunk.size() == 1 && chunk.front().kind == DagEntry::Kind::kPart) {
      out.push_back(chunk.front());
    } else {
      out.push_back(Cut(std::move(chunk), scope));
    }
    kept += WeightOf(out.back());
  }
  if (kept.Fits(budget) && out.size() <= kMaxTasks) return out;
  // More parts than a DAG holds: cut them in turn (neighbours stay neighbours).
  std::vector<std::vector<DagEntry>> singles;
  singles.reserve(out.size());
  for (const DagEntry& entry : out) singles.push_back({entry});
  return Fit(std::move(singles), scope, budget);
}

DagEntry DagPlan::Cut(std::vector<DagEntry> entries, std::optional<size_t> scope) {
  std::vector<Task> leaves;
  Leaves(entries.front(), leaves);
  std::string base = flow_.steps[leaves.front().step].k8s_name.substr(0, kPartBase);
  while (!base.empty() && base.back() == '-') base.pop_back();
  const size_t index = parts_.size();
  for (const DagEntry& entry : entries) {
    const int parent = static_cast<int>(index);
    switch (entry.kind) {
      case DagEntry::Kind::kStep:
        step_parent_[entry.index] = parent;
        break;
      case DagEntry::Kind::kBody:
        body_parent_[entry.index] = parent;
        break;
      case DagEntry::Kind::kPart:
        part_parent_[entry.index] = parent;
        break;
    }
  }
  parts_.push_back({layout_.ClaimName(base + kPartSuffix), PartName(flow_, index + 1), scope,
                    std::move(entries)});
  part_parent_.push_back(kRoot);
  return {DagEntry::Kind::kPart, index};
}

Weight DagPlan::WeightOf(const DagEntry& entry) const {
  switch (entry.kind) {
    case DagEntry::Kind::kStep: {
      const ir::Step& step = flow_.steps[entry.index];
      return {BoundsGang(step) ? size_t{3} : size_t{1},
              sizes_.step_templates[entry.index] + sizes_.step_tasks[entry.index] +
                  kDependsSlack * step.predecessors.size()};
    }
    case DagEntry::Kind::kBody:
      return body_weight_[entry.index];
    case DagEntry::Kind::kPart:
      break;
  }
  return {1, kPartTaskBytes};
}

Weight DagPlan::WeightOf(const std::vector<DagEntry>& entries) const {
  Weight total;
  for (const DagEntry& entry : entries) total += WeightOf(entry);
  return total;
}

void DagPlan::Leaves(const DagEntry& entry, std::vector<Task>& out) const {
  switch (entry.kind) {
    case DagEntry::Kind::kStep:
      out.push_back({false, entry.index});
      return;
    case DagEntry::Kind::kBody:
      out.push_back({true, entry.index});
      return;
    case DagEntry::Kind::kPart:
      for (const DagEntry& inner : parts_[entry.index].entries) Leaves(inner, out);
      return;
  }
}

// The tasks of the same scope that `task` waits for, as Layout::TaskFor maps them: the task of
// a predecessor's own step, or of the body that holds it.
std::vector<DagPlan::Task> DagPlan::Predecessors(const Task& task) const {
  if (task.body) return {{false, task.step}};
  const ir::Step& step = flow_.steps[task.step];
  const std::optional<size_t> scope = Layout::ScopeOf(step);
  std::vector<Task> out;
  for (size_t predecessor : step.predecessors) {
    const std::vector<size_t>& enclosing = flow_.steps[predecessor].enclosing_foreach;
    size_t depth = 0;
    if (scope) {
      while (depth < enclosing.size() && enclosing[depth] != *scope) ++depth;
      if (depth == enclosing.size()) continue;  // the foreach step that starts this body
      ++depth;
    }
    if (depth == enclosing.size()) {
      out.push_back({false, predecessor});
    } else {
      out.push_back({true, enclosing[depth]});
    }
  }
  return out;
}

std::vector<std::string> ListedWorkflowTemplates(const ir::Flow& flow, std::string_view output) {
  // Each document Emit writes starts with its apiVersion, kind and name, in that order.
  const std::string head =
      "apiVersion: argoproj.io/v1alpha1\nkind: WorkflowTemplate\nmetadata:\n  name: ";
  std::vector<std::string> names;
  size_t at = 0;
  while (at < output.size()) {
    size_t end = output.find("\n---\n", at);
    if (end == std::string_view::npos) end = output.size();
    std::string_view document = output.substr(at, end - at);
    if (document.substr(0, head.size()) == head) {
      std::string_view name = document.substr(head.size());
      name = name.substr(0, name.find('\n'));
      if (name != flow.k8s_name)
        names.push_back(fmt::format("workflowtemplate.argoproj.io/{}", name));
    }
    at = end + 5;
  }
  return names;
}

std::string PartName(const ir::Flow& flow, size_t part) {
  if (part == 0) return flow.k8s_name;
  const std::string suffix = fmt::format("-part-{}", part);
  std::string base = flow.k8s_name.substr(0, kMaxObjectName - suffix.size());
  while (!base.empty() && base.back() == '-') base.pop_back();
  return base + suffix;
}

}  // namespace flowc::backends::argo
