// AST -> step graph: names, params, decorators, the shape of the graph and
// the references in run strings, each checked against docs/language.md.
#include <algorithm>
#include <functional>
#include <queue>

#include <fmt/format.h>

#include "compiler/diag/suggest.h"
#include "compiler/graph/gang_references.h"
#include "compiler/graph/graph.h"
#include "compiler/graph/names.h"
#include "compiler/graph/params.h"
#include "compiler/graph/references.h"
#include "compiler/support/flat_map.h"

namespace flowc::graph {
namespace {

using diag::Code;
using Kind = ast::Value::Kind;
constexpr size_t kNone = static_cast<size_t>(-1);
constexpr size_t kUnknown = static_cast<size_t>(-2);

std::vector<std::string_view> Names(const std::vector<Step>& steps) {
  std::vector<std::string_view> names;
  names.reserve(steps.size());
  for (const Step& s : steps) names.push_back(s.name);
  return names;
}

class GraphBuilder {
 public:
  // Builds from `ast`, freeing each step's part of it once the step is built
  // (BuildSteps).
  GraphBuilder(ast::Flow& ast, diag::Reporter& report)
      : ast_(ast), report_(report), gang_references_(report) {}

  std::optional<Flow> Build() {
    flow_.name = ast_.name.name;
    flow_.range = ast_.name.range;
    flow_.k8s_name = KubernetesName(flow_.name);
    CheckKubernetesName("flow", flow_.name, flow_.k8s_name, flow_.range, report_);
    flow_.params = BuildParams(ast_.params, report_);
    FlowDefaults defaults = CheckFlowDecorators(ast_.decorators, report_);
    flow_.schedule = defaults.schedule;
    flow_.queue = defaults.queue;
    const ast::Decorator* flow_queue = nullptr;
    for (const ast::Decorator* d : defaults.decorators) {
      if (d->name.name == "queue") flow_queue = d;
    }
    CheckFlowQueueNamed(flow_queue, ast_.steps, report_);
    RunReferenceCheck references(flow_, report_);
    BuildSteps(defaults, references);
    // The shape of the graph is checked only on well-formed steps and edges.
    if (structure_ok_ && CheckEnds() && CheckCycles()) {
      CheckReachable();
      TopologicalOrder();
      shape_ok_ = MatchSplits();
    }
    references.Finish(shape_ok_);
    gang_references_.Finish(ast_);
    CheckNameCollisions(flow_.steps, duplicate_, report_);
    if (report_.diagnostics().HasErrors()) return std::nullopt;
    return std::move(flow_);
  }

 private:
  const Param* FindParam(std::string_view name) const {
    for (const Param& p : flow_.params) {
      if (p.name == name) return &p;
    }
    return nullptr;
  }

  // --- steps -------------------------------------------------------------
  // Names every step first, so that a `next` can name any of them; then
  // builds each step and frees its part of the AST at once: the AST and the
  // graph are never both whole. What later checks need of a step's AST (its
  // `next`'s range, its `{{item}}`s) is kept apart.
  void BuildSteps(const FlowDefaults& defaults, RunReferenceCheck& references) {
    FlatMap<std::string_view, size_t> index(ast_.steps.size());
    flow_.steps.resize(ast_.steps.size());
    duplicate_.assign(ast_.steps.size(), false);
    first_next_.assign(ast_.steps.size(), std::nullopt);
    next_begin_.assign(ast_.steps.size() + 1, 0);
    for (size_t i = 0; i < ast_.steps.size(); ++i) NameStep(ast_.steps[i], i, index);
    for (size_t i = 0; i < ast_.steps.size(); ++i) {
      ast::Step& a = ast_.steps[i];
      gang_references_.Step(a);
      if (!a.nexts.empty()) first_next_[i] = a.nexts[0].range;
      next_begin_[i] = next_targets_.size();
      if (!duplicate_[i]) {
        BuildStep(defaults, a, flow_.steps[i]);
        references.Step(i, a);
        BuildNext(a, flow_.steps[i], index);
      }
      a = ast::Step();  // nothing reads the step's AST once it is built
    }
    next_begin_.back() = next_targets_.size();
    ast_.steps = std::vector<ast::Step>();
    const size_t* start = index.find("start");
    const size_t* end = index.find("end");
    flow_.start = start ? *start : kNone;
    flow_.end = end ? *end : kNone;
  }

  // The step's name; `index` gets it.
  void NameStep(const ast::Step& a, size_t i, FlatMap<std::string_view, size_t>& index) {
    Step& step = flow_.steps[i];
    step.name = a.name.name;
    step.range = a.name.range;
    step.k8s_name = KubernetesName(step.name);
    auto [first, inserted] = index.try_emplace(step.name, i);
    if (!inserted) {
      duplicate_[i] = true;
      structure_ok_ = false;
      report_(Code::kDuplicateStep, a.name.range,
              fmt::format("step '{}' is declared twice", step.name))
          .AddNote(ast_.steps[*first].name.range, "first declared here");
      return;
    }
    CheckKubernetesName("step", step.name, step.k8s_name, step.range, report_);
  }

  // The step's configuration and command.
  void BuildStep(const FlowDefaults& defaults, const ast::Step& a, Step& step) {
    if (auto config = ResolveStepConfig(defaults, a, config_values_, report_)) {
      step.config = std::make_unique<StepConfig>(std::move(*config));
    }
    BuildRun(a, step);
  }

  void BuildRun(const ast::Step& a, Step& step) {
    if (a.runs.empty()) {
      report_(Code::kRunCount, a.name.range, fmt::format("step '{}' has no 'run'", step.name))
          .SetHelp("add the command it runs, e.g. run \"python train.py\"");
      return;
    }
    for (size_t i = 1; i < a.runs.size(); ++i) {
      report_(Code::kRunCount, a.runs[i].range,
              fmt::format("step '{}' has more than one 'run'", step.name))
          .AddNote(a.runs[0].range, "first 'run' is here")
          .SetHelp("join the commands into one, e.g. run \"cmd1 && cmd2\"");
    }
    const ast::Value& command = a.runs[0].command;
    if (command.kind == Kind::kString) {
      step.shell = true;
      step.command.push_back(SplitReferences(command.string));
      return;
    }
    if (command.items.empty()) {
      report_(Code::kRunCount, command.range, "'run' has an empty command list")
          .SetHelp("write the program and its arguments, e.g. run [\"python\", \"train.py\"]");
      return;
    }
    for (const ast::Value& item : command.items) {
      if (item.kind != Kind::kString) {
        report_(Code::kArgumentType, item.range,
                fmt::format("'run' lists strings, found {}", ast::KindName(item.kind)))
            .SetHelp("quote every argument, e.g. \"5\"");
        continue;
      }
      step.command.push_back(SplitReferences(item.string));
    }
  }

  void BuildNext(const ast::Step& a, Step& step,
                 const FlatMap<std::string_view, size_t>& index) {
    for (size_t i = 1; i < a.nexts.size(); ++i) {
      structure_ok_ = false;
      report_(Code::kDuplicateNext, a.nexts[i].range,
              fmt::format("step '{}' has more than one 'next'", step.name))
          .AddNote(a.nexts[0].range, "first 'next' is here")
          .SetHelp("list every target in one 'next': next a, b");
    }
    if (a.nexts.empty()) return;
    const ast::Next& next = a.nexts[0];
    for (size_t t = 0; t < next.targets.size(); ++t) {
      const ast::Identifier& target = next.targets[t];
      const size_t* found = index.find(target.name);
      if (found == nullptr) {
        structure_ok_ = false;
        auto& d = report_(Code::kUnknownStep, target.range,
                          fmt::format("'next' names unknown step '{}'", target.name));
        std::string hint = diag::DidYouMean(target.name, Names(flow_.steps));
        if (!hint.empty()) d.SetHelp(hint);
        continue;
      }
      bool repeated = false;
      for (size_t u = 0; u < t; ++u) repeated = repeated || next.targets[u].name == target.name;
      if (repeated) {
        structure_ok_ = false;
        report_(Code::kDuplicateTarget, target.range,
                fmt::format("step '{}' is named twice in one 'next'", target.name));
        continue;
      }
      step.next.push_back(*found);
      next_targets_.push_back(*found);
      next_ranges_.push_back(target.range);
    }
    if (next.is_foreach()) BuildForeach(next, step);
  }

  void BuildForeach(const ast::Next& next, Step& step) {
    step.foreach = true;
    if (next.foreach_param) {
      const ast::Identifier& name = *next.foreach_param;
      const Param* param = FindParam(name.name);
      if (param == nullptr) {
        std::vector<std::string_view> names;
        for (const Param& p : flow_.params) names.push_back(p.name);
        auto& d = report_(Code::kForeachSource, name.range,
                          fmt::format("foreach over unknown param '{}'", name.name));
        std::string hint = diag::DidYouMean(name.name, names);
        d.SetHelp(hint.empty() ? fmt::format("declare it: param {}: list = [...]", name.name) : hint);
      } else if (param->type != Param::Type::kList) {
        report_(Code::kForeachSource, name.range,
                fmt::format("foreach over param '{}' of type '{}'; it must be a list", name.name,
                            ParamTypeName(param->type)))
            .AddNote(param->range, fmt::format("'{}' is declared here", name.name));
      }
      step.foreach_param = name.name;
      return;
    }
    const ast::Value& list = *next.foreach_list;
    if (list.items.empty()) {
      report_(Code::kForeachSource, list.range, "foreach over an empty list runs nothing")
          .SetHelp("list at least one element");
    }
    for (const ast::Value& item : list.items) {
      if (!IsScalarValue(item)) {
        report_(Code::kForeachSource, item.range,
                fmt::format("foreach lists strings, numbers or booleans, found {}",
                            ast::KindName(item.kind)));
      }
    }
    step.foreach_items = list.items;
  }

  // --- the shape of the graph -------------------------------------------
  // A step's successors, as written: a view of next_targets_.
  struct Successors {
    const size_t* first;
    const size_t* last;
    const size_t* begin() const { return first; }
    const size_t* end() const { return last; }
    size_t size() const { return static_cast<size_t>(last - first); }
    bool empty() const { return first == last; }
    size_t operator[](size_t i) const { return first[i]; }
  };

  Successors Next(size_t u) const {
    const size_t* targets = next_targets_.data();
    return {targets + next_begin_[u], targets + next_begin_[u + 1]};
  }

  bool CheckEnds() {
    bool ok = true;
    // Without 'end', a single step that has no 'next' was most likely meant
    // to be it: say so on the E013 instead of reporting it again.
    size_t lone_last = kNone;
    if (flow_.end == kNone) {
      for (size_t i = 0; i < flow_.steps.size(); ++i) {
        if (first_next_[i]) continue;
        lone_last = lone_last == kNone ? i : kUnknown;
      }
    }
    if (flow_.start == kNone) {
      report_(Code::kMissingStart, flow_.range,
              fmt::format("flow '{}' has no step 'start'", flow_.name))
          .SetHelp("every flow begins at a step named 'start'");
      ok = false;
    }
    if (flow_.end == kNone) {
      auto& d = report_(Code::kMissingEnd, flow_.range,
                        fmt::format("flow '{}' has no step 'end'", flow_.name));
      if (lone_last < kUnknown) {
        d.AddNote(flow_.steps[lone_last].range,
                  fmt::format("step '{}' has no 'next'; did you mean to name it 'end'?",
                              flow_.steps[lone_last].name));
      }
      d.SetHelp("every flow finishes at a step named 'end'");
      ok = false;
    }
    for (size_t i = 0; i < flow_.steps.size(); ++i) {
      const Step& step = flow_.steps[i];
      if (i == flow_.end && first_next_[i]) {
        report_(Code::kEndHasNext, *first_next_[i], "step 'end' cannot have a 'next'")
            .SetHelp("the flow finishes at 'end'; remove this 'next'");
        ok = false;
      } else if (i != flow_.end && !first_next_[i] && i != lone_last) {
        report_(Code::kMissingNext, step.range, fmt::format("step '{}' has no 'next'", step.name))
            .SetHelp("only step 'end' finishes the flow; add e.g. 'next end'");
        ok = false;
      }
    }
    return ok;
  }

  bool CheckCycles() {
    // Iterative DFS; a gray successor closes a cycle.
    enum Color : uint8_t { kWhite, kGray, kBlack };
    std::vector<Color> color(flow_.steps.size(), kWhite);
    std::vector<size_t> parent(flow_.steps.size(), kNone);
    bool ok = true;
    for (size_t root = 0; root < flow_.steps.size(); ++root) {
      if (color[root] != kWhite) continue;
      std::vector<std::pair<size_t, size_t>> stack = {{root, 0}};
      color[root] = kGray;
      while (!stack.empty()) {
        auto& [u, child] = stack.back();
        if (child == Next(u).size()) {
          color[u] = kBlack;
          stack.pop_back();
          continue;
        }
        size_t t = child++;
        size_t v = Next(u)[t];
        if (color[v] == kWhite) {
          color[v] = kGray;
          parent[v] = u;
          stack.emplace_back(v, 0);
        } else if (color[v] == kGray) {
          ok = false;
          std::vector<std::string_view> path = {flow_.steps[v].name};
          for (size_t w = u; w != v && w != kNone; w = parent[w]) path.insert(path.begin() + 1, flow_.steps[w].name);
          path.push_back(flow_.steps[v].name);
          report_(Code::kCycle, next_ranges_[next_begin_[u] + t],
                  fmt::format("'next {}' closes a cycle: {}", flow_.steps[v].name,
                              fmt::join(path, " -> ")))
              .SetHelp("a flow is a DAG; to repeat work, use foreach");
        }
      }
    }
    return ok;
  }

  void CheckReachable() {
    std::vector<bool> seen(flow_.steps.size(), false);
    std::vector<size_t> work = {flow_.start};
    seen[flow_.start] = true;
    while (!work.empty()) {
      size_t u = work.back();
      work.pop_back();
      for (size_t v : Next(u)) {
        if (!seen[v]) {
          seen[v] = true;
          work.push_back(v);
        }
      }
    }
    // In declaration order, so that each step's predecessors come out sorted.
    for (size_t u = 0; u < flow_.steps.size(); ++u) {
      if (!seen[u]) continue;
      for (size_t v : Next(u)) flow_.steps[v].predecessors.push_back(u);
    }
    for (size_t i = 0; i < flow_.steps.size(); ++i) {
      if (!seen[i]) {
        reachable_ok_ = false;
        report_(Code::kUnreachable, flow_.steps[i].range,
                fmt::format("step '{}' is unreachable from 'start'", flow_.steps[i].name))
            .SetHelp(fmt::format("name it in the 'next' of another step, or remove it"));
      }
    }
  }

  // Kahn's algorithm, taking the earliest-declared ready step first.
  void TopologicalOrder() {
    std::vector<size_t> indegree(flow_.steps.size(), 0);
    for (size_t v : next_targets_) ++indegree[v];
    std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
    for (size_t i = 0; i < flow_.steps.size(); ++i) {
      if (indegree[i] == 0) ready.push(i);
    }
    while (!ready.empty()) {
      size_t u = ready.top();
      ready.pop();
      flow_.order.push_back(u);
      for (size_t v : Next(u)) {
        if (--indegree[v] == 0) ready.push(v);
      }
    }
  }

  // Immediate post-dominators: the first step every path from a step meets.
  // A branch is closed by its immediate post-dominator.
  void PostDominators() {
    std::vector<size_t> position(flow_.steps.size());
    for (size_t i = 0; i < flow_.order.size(); ++i) position[flow_.order[i]] = i;
    ipdom_.assign(flow_.steps.size(), kNone);
    for (size_t k = flow_.order.size(); k-- > 0;) {
      size_t u = flow_.order[k];
      Successors next = Next(u);
      if (next.empty()) continue;
      size_t candidate = next[0];
      for (size_t t = 1; t < next.size(); ++t) {
        size_t other = next[t];
        while (candidate != other && candidate != kNone && other != kNone) {
          if (position[candidate] < position[other]) {
            candidate = ipdom_[candidate];
          } else {
            other = ipdom_[other];
          }
        }
        if (candidate != other) candidate = kNone;
      }
      ipdom_[u] = candidate;
    }
  }

  // The step after the unit that starts at `u`: a plain step is its own
  // unit; a split's unit runs through its join (and on, while that join
  // splits again). Recurses only into nested foreach bodies.
  size_t Follow(size_t u) {
    while (true) {
      Successors next = Next(u);
      if (next.empty()) return kNone;
      if (flow_.steps[u].foreach) {
        size_t join = ForeachJoin(u);
        if (join == kNone) return kNone;
        u = join;
      } else if (next.size() == 1) {
        return next[0];
      } else if (ipdom_[u] == kNone) {
        return kNone;
      } else {
        u = ipdom_[u];
      }
    }
  }

  // A foreach is closed by the first step after the unit of its body.
  size_t ForeachJoin(size_t u) {
    if (foreach_join_[u] == kUnknown) foreach_join_[u] = Follow(Next(u)[0]);
    return foreach_join_[u];
  }

  bool MatchSplits() {
    if (!reachable_ok_) return false;
    PostDominators();
    foreach_join_.assign(flow_.steps.size(), kUnknown);
    visited_.assign(flow_.steps.size(), false);
    foreach_stack_.clear();
    return Walk(flow_.start, kNone, kNone);
  }

  // Visits the chain of units from `u` up to `stop`, which closes the split
  // `owner` (kNone at the top level). Every step must be visited once.
  bool Walk(size_t u, size_t stop, size_t owner) {
    while (u != stop && u != kNone) {
      Step& step = flow_.steps[u];
      if (visited_[u]) {
        report_(Code::kBadJoin, step.range,
                fmt::format("step '{}' joins paths of different splits", step.name))
            .AddNote(flow_.steps[owner == kNone ? flow_.start : owner].range,
                     "it is reached from inside this split and from outside it")
            .SetHelp("a join merges the paths of one split only; close the inner split first");
        return false;
      }
      visited_[u] = true;
      step.enclosing_foreach = foreach_stack_;
      Successors next = Next(u);
      if (next.empty()) {
        if (stop != kNone) return Unclosed(owner);
        return true;
      }
      if (next.size() == 1 && !step.foreach) {
        u = next[0];
        continue;
      }
      size_t join = step.foreach ? ForeachJoin(u) : ipdom_[u];
      if (join == kNone) return Unclosed(u);
      if (join == stop && stop != kNone) {
        if (ReportCrossing(u, join)) return false;
        report_(Code::kBadJoin, flow_.steps[join].range,
                fmt::format("step '{}' closes two splits, at '{}' and at '{}'",
                            flow_.steps[join].name, step.name, flow_.steps[owner].name))
            .AddNote(step.range, fmt::format("the split at '{}' needs its own join", step.name))
            .SetHelp(fmt::format("add a step that joins the paths of '{}' before '{}'", step.name,
                                 flow_.steps[join].name));
        return false;
      }
      step.join = join;
      if (step.foreach) {
        foreach_stack_.push_back(u);
        bool ok = Walk(next[0], join, u);
        foreach_stack_.pop_back();
        if (!ok) return false;
      } else {
        for (size_t arm : next) {
          if (!Walk(arm, join, u)) return false;
        }
      }
      u = join;
    }
    return true;
  }

  // When the split at `u` shares its join with the split around it, the
  // usual cause is a step inside `u`'s region that is also reached from
  // outside it. Reports that step, if there is one.
  bool ReportCrossing(size_t u, size_t join) {
    std::vector<bool> inside(flow_.steps.size(), false);
    std::vector<size_t> work = {u};
    inside[u] = true;
    std::vector<size_t> region;
    while (!work.empty()) {
      size_t x = work.back();
      work.pop_back();
      region.push_back(x);
      for (size_t v : Next(x)) {
        if (v != join && !inside[v]) {
          inside[v] = true;
          work.push_back(v);
        }
      }
    }
    std::sort(region.begin(), region.end());
    for (size_t x : region) {
      if (x == u) continue;
      for (size_t p : flow_.steps[x].predecessors) {
        if (inside[p]) continue;
        report_(Code::kBadJoin, flow_.steps[x].range,
                fmt::format("step '{}' joins paths of different splits", flow_.steps[x].name))
            .AddNote(flow_.steps[u].range, "it is reached from inside this split and from outside it")
            .SetHelp("a join merges the paths of one split only; close the inner split first");
        return true;
      }
    }
    return false;
  }

  bool Unclosed(size_t split) {
    const Step& step = flow_.steps[split];
    report_(Code::kUnclosedSplit, step.range,
            fmt::format("the {} at step '{}' is never joined", step.foreach ? "foreach" : "branch",
                        step.name))
        .SetHelp("every branch and foreach needs a step that all of its paths reach before 'end'");
    return false;
  }

  ast::Flow& ast_;
  diag::Reporter& report_;
  GangReferenceCheck gang_references_;
  Flow flow_;
  bool structure_ok_ = true;
  bool shape_ok_ = false;  // splits matched: foreach bodies are known
  bool reachable_ok_ = true;
  std::vector<bool> duplicate_;  // a step declared again: its first declaration counts
  ConfigValues config_values_;  // the steps' configurations share their values
  std::vector<std::optional<diag::SourceRange>> first_next_;  // each step's `next`
  // Every step's `next` edges in one array, which the shape checks visit
  // several times (a vector per step cost a cache miss per step at 100,000
  // steps): step i's are next_targets_[k], named at next_ranges_[k], for k
  // from next_begin_[i] up to next_begin_[i + 1].
  std::vector<diag::SourceRange> next_ranges_;
  std::vector<size_t> next_targets_;
  std::vector<size_t> next_begin_;
  std::vector<size_t> ipdom_;
  std::vector<size_t> foreach_join_;
  std::vector<bool> visited_;
  std::vector<size_t> foreach_stack_;
};

}  // namespace

const char* ParamTypeName(ParamType type) {
  switch (type) {
    case ParamType::kStr: return "str";
    case ParamType::kInt: return "int";
    case ParamType::kFloat: return "float";
    case ParamType::kBool: return "bool";
    case ParamType::kList: return "list";
  }
  return "str";
}

std::optional<Flow> BuildGraph(ast::Flow flow, diag::Reporter& report) {
  return GraphBuilder(flow, report).Build();
}

}  // namespace flowc::graph
