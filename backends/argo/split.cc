#include "backends/argo/split.h"

#include <fmt/format.h>

#include <string_view>
#include <utility>

#include "backends/argo/argo_backend.h"
#include "backends/argo/layout.h"

namespace flowc::backends::argo {
namespace {

constexpr const char* kNestedSuffix = "-dag";
// Room left in a nested DAG's name for the suffix and a `-<n>` that tells two apart.
constexpr size_t kNestedBase = kMaxObjectName - 4 - 4;

}  // namespace

// A scope's graph as series-parallel units: a task, a sequence of units (each after the one
// before it), or the arms of a split (each a sequence, all between the split and its join).
struct DagPlan::Unit {
  enum class Kind { kTask, kSequence, kArms };
  Kind kind = Kind::kSequence;
  DagEntry entry{DagEntry::Kind::kStep, 0};
  std::vector<Unit> children;
};

DagPlan::DagPlan(const ir::Flow& flow, Layout& layout)
    : flow_(flow),
      layout_(layout),
      body_roots_(flow.steps.size()),
      step_parent_(flow.steps.size(), kRoot),
      body_parent_(flow.steps.size(), kRoot) {
  // Every scope's tasks, in the order of the steps (one pass: a flow has many scopes).
  for (size_t i = 0; i < flow.steps.size(); ++i) {
    const std::optional<size_t> scope = Layout::ScopeOf(flow.steps[i]);
    std::vector<DagEntry>& root = scope ? body_roots_[*scope] : entry_root_;
    root.push_back({DagEntry::Kind::kStep, i});
    if (flow.steps[i].foreach) root.push_back({DagEntry::Kind::kBody, i});
  }
  PlanScope(std::nullopt, 0, std::nullopt);
  for (size_t foreach_step : layout.foreach_steps()) {
    const ir::Foreach& foreach = *flow.steps[foreach_step].foreach;
    PlanScope(foreach_step, foreach.body, foreach.join);
  }
}

const std::string& DagPlan::Name(const DagEntry& entry) const {
  switch (entry.kind) {
    case DagEntry::Kind::kStep:
      return layout_.step_name(entry.index);
    case DagEntry::Kind::kBody:
      return layout_.body_name(entry.index);
    case DagEntry::Kind::kNested:
      break;
  }
  return nested_[entry.index].name;
}

std::vector<std::string> DagPlan::Depends(std::optional<size_t> nested,
                                          const DagEntry& entry) const {
  const int container = nested ? static_cast<int>(*nested) : kRoot;
  std::vector<Task> leaves;
  Leaves(entry, leaves);
  std::vector<std::string> depends;
  for (const Task& leaf : leaves) {
    for (const Task& predecessor : Predecessors(leaf)) {
      // The task or nested DAG that holds the predecessor in `container`, if any does.
      DagEntry at{predecessor.body ? DagEntry::Kind::kBody : DagEntry::Kind::kStep,
                  predecessor.step};
      int parent = ParentOf(predecessor);
      bool outside = false;
      while (parent != container) {
        if (parent == kRoot) {
          outside = true;
          break;
        }
        at = {DagEntry::Kind::kNested, static_cast<size_t>(parent)};
        parent = nested_parent_[parent];
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

void DagPlan::PlanScope(std::optional<size_t> scope, size_t first, std::optional<size_t> stop) {
  std::vector<DagEntry>& root = scope ? body_roots_[*scope] : entry_root_;
  if (root.size() <= kMaxTasks) return;
  const size_t tasks = root.size();
  const size_t nested_before = nested_.size();
  std::vector<DagEntry> packed = Pack(Sequence(first, stop), scope);
  std::vector<Task> leaves;
  for (const DagEntry& entry : packed) Leaves(entry, leaves);
  if (leaves.size() != tasks) {
    // The walk from the scope's first step missed a task, which the language's graphs do not
    // allow: keep the one DAG (more than 200 tasks, which Argo refuses) rather than drop one.
    nested_.resize(nested_before);
    nested_parent_.resize(nested_before);
    for (const DagEntry& entry : root) {
      ParentOf({entry.kind == DagEntry::Kind::kBody, entry.index}) = kRoot;
    }
    return;
  }
  root = std::move(packed);
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

std::vector<DagEntry> DagPlan::Pack(const Unit& unit, std::optional<size_t> scope) {
  if (unit.kind == Unit::Kind::kTask) return {unit.entry};
  std::vector<std::vector<DagEntry>> parts;
  parts.reserve(unit.children.size());
  for (const Unit& child : unit.children) parts.push_back(Pack(child, scope));
  return Fit(std::move(parts), scope);
}

// Each part is kept whole (a unit of a sequence, or an arm): it goes into the DAG as its tasks,
// or into one nested DAG with the parts next to it. Parts are nested from the first on, as few
// as bring the DAG within kMaxTasks.
std::vector<DagEntry> DagPlan::Fit(std::vector<std::vector<DagEntry>> parts,
                                   std::optional<size_t> scope) {
  size_t remaining = 0;
  for (const std::vector<DagEntry>& part : parts) remaining += part.size();
  std::vector<DagEntry> out;
  size_t i = 0;
  while (i < parts.size()) {
    if (out.size() + remaining <= kMaxTasks) {
      for (; i < parts.size(); ++i) out.insert(out.end(), parts[i].begin(), parts[i].end());
      break;
    }
    std::vector<DagEntry> chunk;
    while (i < parts.size() && chunk.size() + parts[i].size() <= kMaxTasks) {
      chunk.insert(chunk.end(), parts[i].begin(), parts[i].end());
      remaining -= parts[i].size();
      ++i;
    }
    out.push_back(chunk.size() == 1 ? chunk.front() : Nest(std::move(chunk), scope));
  }
  if (out.size() <= kMaxTasks) return out;
  // More nested DAGs than a DAG holds: nest them in turn (neighbours stay neighbours).
  std::vector<std::vector<DagEntry>> singles;
  singles.reserve(out.size());
  for (const DagEntry& entry : out) singles.push_back({entry});
  return Fit(std::move(singles), scope);
}

DagEntry DagPlan::Nest(std::vector<DagEntry> entries, std::optional<size_t> scope) {
  std::vector<Task> leaves;
  Leaves(entries.front(), leaves);
  std::string base = flow_.steps[leaves.front().step].k8s_name.substr(0, kNestedBase);
  while (!base.empty() && base.back() == '-') base.pop_back();
  const size_t index = nested_.size();
  for (const DagEntry& entry : entries) {
    const int parent = static_cast<int>(index);
    switch (entry.kind) {
      case DagEntry::Kind::kStep:
        step_parent_[entry.index] = parent;
        break;
      case DagEntry::Kind::kBody:
        body_parent_[entry.index] = parent;
        break;
      case DagEntry::Kind::kNested:
        nested_parent_[entry.index] = parent;
        break;
    }
  }
  nested_.push_back({layout_.ClaimName(base + kNestedSuffix), scope, std::move(entries)});
  nested_parent_.push_back(kRoot);
  return {DagEntry::Kind::kNested, index};
}

void DagPlan::Leaves(const DagEntry& entry, std::vector<Task>& out) const {
  switch (entry.kind) {
    case DagEntry::Kind::kStep:
      out.push_back({false, entry.index});
      return;
    case DagEntry::Kind::kBody:
      out.push_back({true, entry.index});
      return;
    case DagEntry::Kind::kNested:
      for (const DagEntry& inner : nested_[entry.index].entries) Leaves(inner, out);
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

std::vector<TemplateUnit> TemplateUnits(const ir::Flow& flow, const Layout& layout,
                                        const DagPlan& plan) {
  std::vector<TemplateUnit> units;
  // The nested DAGs of each scope (the entrypoint's last), in the order they were made.
  std::vector<std::vector<size_t>> nested(flow.steps.size() + 1);
  for (size_t i = 0; i < plan.nested().size(); ++i) {
    nested[plan.nested()[i].scope.value_or(flow.steps.size())].push_back(i);
  }
  auto scope = [&](std::optional<size_t> foreach_step) {
    units.push_back({TemplateUnit::Kind::kScopeDag, foreach_step, 0});
    for (size_t i : nested[foreach_step.value_or(flow.steps.size())]) {
      units.push_back({TemplateUnit::Kind::kNestedDag, foreach_step, i});
    }
  };
  scope(std::nullopt);
  for (size_t foreach_step : layout.foreach_steps()) scope(foreach_step);
  for (size_t i = 0; i < flow.steps.size(); ++i) {
    units.push_back({TemplateUnit::Kind::kStep, std::nullopt, i});
  }
  return units;
}

size_t TemplateCount(const ir::Flow& flow, const TemplateUnit& unit) {
  return unit.kind == TemplateUnit::Kind::kStep && BoundsGang(flow.steps[unit.index]) ? 3 : 1;
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
