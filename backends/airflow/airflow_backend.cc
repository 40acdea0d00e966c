#include "backends/airflow/airflow_backend.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory_resource>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "backends/airflow/dag_header.h"
#include "backends/airflow/dag_plan.h"
#include "backends/airflow/k8s_delivery.h"
#include "backends/airflow/pod_kwargs.h"
#include "backends/airflow/python.h"
#include "compiler/support/flat_map.h"

namespace flowc::backends::airflow {
namespace {

using Kwargs = PyExpr::Kwargs;

// Names a DAG file defines or imports, and Python's own: no step variable
// may take one, or it would shadow what later code calls.
const std::set<std::string>& ReservedNames() {
  static const std::set<std::string> names = {
      // Keywords (and soft keywords, for readability).
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "case", "class",
      "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if",
      "import", "in", "is", "lambda", "match", "nonlocal", "not", "or", "pass", "raise", "return",
      "try", "type", "while", "with", "yield",
      // Builtins.
      "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray",
      "bytes", "callable", "chr", "classmethod", "compile", "complex", "copyright", "credits",
      "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "exit", "filter", "float",
      "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id", "input",
      "int", "isinstance", "issubclass", "iter", "len", "license", "list", "locals", "map", "max",
      "memoryview", "min", "next", "object", "oct", "open", "ord", "pow", "print", "property",
      "quit", "range", "repr", "reversed", "round", "set", "setattr", "slice", "sorted",
      "staticmethod", "str", "sum", "super", "tuple", "vars", "zip", "ArithmeticError",
      "AssertionError", "AttributeError", "BaseException", "Ellipsis", "Exception", "KeyError",
      "LookupError", "NotImplemented", "OSError", "RuntimeError", "StopIteration", "TypeError",
      "ValueError",
      // What the file imports or defines.
      "ApiException", "DAG", "KubernetesHook", "KubernetesPodOperator", "Param", "base64", "dag",
      "datetime", "hashlib", "item", "json", "k8s", "pendulum", "task", "task_group", "time",
      "yaml"};
  return names;
}

// `task(task_id=..., ...)(fn)`: a TaskFlow task running one of the helpers.
PyExpr HelperTask(Kwargs task_kwargs, const char* fn) {
  return PyExpr::Call(PyExpr::Call("task", {}, std::move(task_kwargs)), {PyExpr::Code(fn)});
}

// ---------------------------------------------------------------------------
// The writer.

class DagWriter {
 public:
  DagWriter(const ir::Flow& flow, const Plan& plan) : flow_(flow), plan_(plan) {
    params_scope_.params = &flow.params;
    // A task and its argv list each a step, most often.
    used_vars_.reserve(2 * flow.steps.size());
    node_vars_.resize(plan.nodes);
  }

  // What the body uses is decided first, for the header; the body then goes to `out` a
  // task at a time (a 100,000-step DAG is 112 MB of text).
  void Write(OutputSink& out) {
    DagUses uses = PlanUses(flow_, plan_);
    WriteHeader(flow_, uses, out);
    Body(out);
    std::sort(seen_.gangs.begin(), seen_.gangs.end(),
              [&](size_t a, size_t b) { return flow_.steps[a].name < flow_.steps[b].name; });
    seen_.gangs.erase(std::unique(seen_.gangs.begin(), seen_.gangs.end()), seen_.gangs.end());
    if (!(seen_ == uses)) {
      throw std::logic_error("airflow: the DAG's body used other than PlanUses decided");
    }
  }

 private:
  // --- names ---------------------------------------------------------------

  // A Python variable named `base`, or `base` and as many `_` as make it
  // one no other has. The name lasts as long as the writer.
  std::string_view Var(std::string base) {
    bool plain = ReservedNames().count(base) == 0 && base.rfind("flowc_", 0) != 0 &&
                 base.rfind("FLOWC_", 0) != 0;
    if (!plain) base += "_";
    while (used_vars_.find(base) != nullptr) base += "_";
    char* kept = static_cast<char*>(names_.allocate(base.size(), 1));
    std::string_view var(kept, base.size());
    base.copy(kept, base.size());
    used_vars_.try_emplace(var, true);
    return var;
  }

  static std::string Suffix(const Binding& binding, size_t skip, char sep) {
    std::string out;
    for (size_t i = skip; i < binding.size(); ++i)
      out += fmt::format("{}{}", sep, binding[i].second);
    return out;
  }

  // --- the file ------------------------------------------------------------

  void Body(OutputSink& sink) {
    std::string out = "with DAG(\n";
    Kwargs dag;
    dag.emplace_back("dag_id", PyExpr::Str(flow_.name));
    dag.emplace_back("schedule",
                     flow_.schedule ? PyExpr::Str(flow_.schedule->cron) : PyExpr::None());
    std::string tz = flow_.schedule && !flow_.schedule->timezone.empty() ? flow_.schedule->timezone
                                                                         : std::string("UTC");
    dag.emplace_back("start_date", PyExpr::Code(fmt::format("pendulum.datetime(2024, 1, 1, tz={})",
                                                            PythonString(tz))));
    dag.emplace_back("catchup", PyExpr::Bool(false));
    PyExpr::Items params;
    for (const ir::Param& param : flow_.params) {
      params.emplace_back(PyExpr::Str(param.name), ParamExpr(param));
    }
    dag.emplace_back("params", PyExpr::Dict(std::move(params)));
    dag.emplace_back("tags", PyExpr::List({PyExpr::Str("flowc")}));
    if (UsesTextFilter()) {
      seen_.text = true;
      dag.emplace_back("user_defined_filters",
                       PyExpr::Dict({{PyExpr::Str("flowc_text"), PyExpr::Code("flowc_text")}}));
    }
    for (const auto& [name, value] : dag) {
      out += fmt::format("    {}={},\n", name, value.FormatAt(4, 5 + name.size(), 1));
    }
    out += ") as dag:\n";

    // The objects' setup tasks first: their variables take the plain names.
    std::vector<ObjectSetup> setups = PlanObjectSetups(flow_);
    std::vector<std::string_view> setup_vars;
    for (const ObjectSetup& setup : setups) {
      seen_.objects = seen_.task = true;
      const std::string& step = flow_.steps[setup.step].name;
      setup_vars.push_back(Var(step + "_objects"));
      PyExpr::Exprs keys;
      for (size_t o : setup.objects) keys.push_back(PyExpr::Str(ObjectKey(flow_.objects[o])));
      PyExpr helper =
          HelperTask({{"task_id", PyExpr::Str(step + "-objects")}}, "flowc_create_objects");
      Assign(out, setup_vars.back(),
             PyExpr::Call(std::move(helper), {}, {{"objects", PyExpr::List(keys)}}), 4);
    }

    for (size_t s = 0; s < flow_.steps.size(); ++s) {
      PyExprArena arena(arena_buffer_);  // each step's expressions end with it
      std::optional<size_t> dynamic = DynamicOf(plan_, s);
      const std::vector<size_t> unrolled = Unrolled(plan_, flow_.steps[s].enclosing_foreach);
      if (!dynamic) {
        for (const Binding& b : Bindings(flow_, unrolled, {})) Task(s, b, 0, 4, out);
      } else if (plan_.mode[*dynamic] == ForeachMode::kMappedTask) {
        for (const Binding& b : Bindings(flow_, unrolled, {})) MappedTask(s, *dynamic, b, out);
      } else if (plan_.body[*dynamic].front() == s) {
        std::vector<size_t> outer = Unrolled(plan_, flow_.steps[*dynamic].enclosing_foreach);
        for (const Binding& b : Bindings(flow_, outer, {})) Group(*dynamic, b, out);
      }
      WriteWhenFull(out, sink);
    }

    // One teardown per @parallel step: it deletes what the step's tasks left
    // (airflow/models/xcom_arg.py as_teardown: trigger rule
    // ALL_DONE_SETUP_SUCCESS, which with no setup upstream runs once every
    // upstream task is done, in whatever state: ti_deps/deps/trigger_rule_dep.py).
    std::vector<std::pair<size_t, std::string_view>> teardowns;
    for (size_t s = 0; s < flow_.steps.size(); ++s) {
      const ir::Step& step = flow_.steps[s];
      if (!step.parallel) continue;
      PyExprArena arena(arena_buffer_);
      teardowns.emplace_back(s, Var(step.name + "_teardown"));
      PyExpr helper =
          HelperTask({{"task_id", PyExpr::Str(step.name + "-teardown")}}, "flowc_gang_teardown");
      PyExpr call = PyExpr::Call(std::move(helper), {}, {{"step", PyExpr::Str(step.name)}});
      Assign(out, teardowns.back().second, PyExpr::Call(PyExpr::Attr(call, "as_teardown"), {}), 4);
      WriteWhenFull(out, sink);
    }

    Edges(std::nullopt, {}, 4, out);
    for (size_t i = 0; i < setups.size(); ++i) {
      out += EdgeLine(setup_vars[i], VarsOf(DagNodes(flow_, plan_, setups[i].users)), 4);
    }
    for (const auto& [s, var] : teardowns) {
      out += EdgeLine(var, VarsOf(DagNodes(flow_, plan_, {s})), 4, true);
    }
    sink.Write(out);
  }

  // Whether a command refers to a param: every param renders through flowc_text
  // (ParamExpression), and the graph has checked that each reference names one.
  bool UsesTextFilter() const {
    for (const ir::Step& step : flow_.steps) {
      if (ir::CommandRefers(step.pod, ir::Segment::Kind::kParam)) return true;
    }
    return false;
  }

  // A comment before the first task written out for an unrolled foreach.
  void UnrolledNote(size_t s, size_t indent, std::string& out) {
    for (size_t f : Unrolled(plan_, flow_.steps[s].enclosing_foreach)) {
      if (!noted_.insert(f).second) continue;
      out += fmt::format(
          "{}# The foreach of '{}' runs once per element of its literal list, as the tasks\n"
          "{}# below: Airflow cannot map tasks inside a mapped task group or around one.\n",
          std::string(indent, ' '), flow_.steps[f].name, std::string(indent, ' '));
    }
  }

  // Appends the Python statement `var = value`, formatted at `indent`.
  static void Assign(std::string& out, std::string_view var, const PyExpr& value, size_t indent) {
    out.append(indent, ' ').append(var).append(" = ");
    value.FormatInto(out, indent, indent + var.size() + 3, 0);
    out += '\n';
  }

  // Appends one task for step `s` in `binding`; `skip` leading binding
  // entries are the enclosing group's and are not part of the task id. (The
  // writer appends to one buffer throughout: a string per task grew past
  // 1 KiB every time, and a request that large makes glibc consolidate its
  // fast bins first: malloc/malloc.c, _int_malloc, a large-bin request calls
  // malloc_consolidate when the arena has fast chunks.)
  void Task(size_t s, const Binding& binding, size_t skip, size_t indent, std::string& out) {
    const ir::Step& step = flow_.steps[s];
    UnrolledNote(s, indent, out);
    std::string task_id = step.name + Suffix(binding, skip, '-');
    std::string_view var = Var(step.name + Suffix(binding, skip, '_'));
    node_vars_[TaskNode(flow_, plan_, s, binding)] = var;

    // Where {{item}} comes from: a written-out element, or the mapped
    // group's argument `item`.
    JinjaScope scope = params_scope_;
    bool runtime_item = false;
    if (!step.enclosing_foreach.empty()) {
      size_t innermost = step.enclosing_foreach.back();
      if (plan_.mode[innermost] == ForeachMode::kUnrolled) {
        for (const auto& [f, i] : binding) {
          if (f == innermost) {
            scope.item = JinjaScope::Item::kConstant;
            scope.item_value = flow_.steps[f].foreach->items[i];
          }
        }
      } else {
        runtime_item = true;
      }
    }
    bool item_needed = ir::CommandRefers(step.pod, ir::Segment::Kind::kItem);

    if (step.parallel) {
      Kwargs call = GangArgs(step);
      if (item_needed && runtime_item) call.emplace_back("item", PyExpr::Code("item"));
      if (item_needed && !runtime_item) call.emplace_back("item", Rendered(scope.item_value));
      Assign(out, var, PyExpr::Call(GangTask(s, task_id), {}, std::move(call)), indent);
      return;
    }

    std::optional<PyExpr> cmds;
    if (item_needed && runtime_item) {
      seen_.task = seen_.argv = seen_.text = true;
      std::string_view argv_var = Var(std::string(var) + "_argv");
      PyExpr helper = HelperTask({{"task_id", PyExpr::Str(task_id + "-argv")}}, "flowc_argv");
      PyExpr call =
          PyExpr::Call(std::move(helper), {},
                       {{"argv", ArgvParts(step.pod, scope)}, {"item", PyExpr::Code("item")}});
      Assign(out, argv_var, call, indent);
      cmds = PyExpr::Code(argv_var);
    } else {
      PyExpr::Exprs args;
      for (const ir::Text& arg : step.pod.command)
        args.push_back(PyExpr::Str(JinjaText(arg, scope)));
      cmds = PyExpr::List(std::move(args));
    }
    Assign(out, var, PodOperator(step, task_id, std::move(cmds), "KubernetesPodOperator"), indent);
  }

  // The single step of a mapped foreach `f`: one task per element.
  void MappedTask(size_t s, size_t f, const Binding& binding, std::string& out) {
    const ir::Step& step = flow_.steps[s];
    const ir::Foreach& foreach = *flow_.steps[f].foreach;
    UnrolledNote(s, 4, out);
    std::string task_id = step.name + Suffix(binding, 0, '-');
    std::string_view var = Var(step.name + Suffix(binding, 0, '_'));
    node_vars_[TaskNode(flow_, plan_, s, binding)] = var;
    seen_.task = true;

    if (step.parallel) {
      PyExpr items = ItemsExpr(foreach, task_id, var, out, /*rendered=*/true);
      PyExpr partial =
          PyExpr::Call(PyExpr::Attr(GangTask(s, task_id), "partial"), {}, GangArgs(step));
      Assign(out, var,
             PyExpr::Call(PyExpr::Attr(std::move(partial), "expand"), {},
                          {{"item", std::move(items)}}),
             4);
      return;
    }

    seen_.argvs = seen_.argv = seen_.items = seen_.text = true;
    std::string_view argv_var = Var(std::string(var) + "_argv");
    Kwargs helper_kwargs = {{"argv", ArgvParts(step.pod, params_scope_)}};
    if (foreach.param.empty()) {
      PyExpr::Exprs items;
      // Arguments of a task are rendered: the elements are escaped for Jinja.
      for (const std::string& item : foreach.items) items.push_back(Rendered(item));
      helper_kwargs.emplace_back("items", PyExpr::List(std::move(items)));
    } else {
      helper_kwargs.emplace_back("param", PyExpr::Str(foreach.param));
    }
    PyExpr helper = HelperTask({{"task_id", PyExpr::Str(task_id + "-argv")}}, "flowc_argvs");
    Assign(out, argv_var, PyExpr::Call(std::move(helper), {}, std::move(helper_kwargs)), 4);
    PyExpr partial = PodOperator(step, task_id, std::nullopt, "KubernetesPodOperator.partial");
    Assign(out, var,
           PyExpr::Call(PyExpr::Attr(std::move(partial), "expand"), {},
                        {{"cmds", PyExpr::Code(argv_var)}}),
           4);
  }

  // A mapped task group running the body of foreach `f` once per element.
  void Group(size_t f, const Binding& binding, std::string& out) {
    const ir::Step& split = flow_.steps[f];
    const std::vector<size_t>& body = plan_.body[f];
    const ir::Step& first = flow_.steps[body.front()];
    seen_.task_group = true;
    std::string group_id = first.name + Suffix(binding, 0, '-');
    std::string_view fn = Var(first.name + Suffix(binding, 0, '_') + "_foreach");
    out += fmt::format("\n    # The foreach of '{}': the tasks of its body, once per element.\n",
                       split.name);
    out += fmt::format("    @task_group(group_id={})\n", PythonString(group_id));
    out += fmt::format("    def {}(item):\n", fn);
    for (size_t s : body) {
      std::vector<size_t> inner;
      for (size_t g : Unrolled(plan_, flow_.steps[s].enclosing_foreach)) {
        bool outside = std::find(split.enclosing_foreach.begin(), split.enclosing_foreach.end(),
                                 g) != split.enclosing_foreach.end();
        if (!outside) inner.push_back(g);
      }
      for (const Binding& b : Bindings(flow_, inner, binding)) Task(s, b, binding.size(), 8, out);
    }
    Edges(f, binding, 8, out);
    out += "\n";
    std::string_view var = Var(first.name + Suffix(binding, 0, '_') + "_group");
    node_vars_[GroupNode(flow_, plan_, f, binding)] = var;
    PyExpr items = ItemsExpr(*split.foreach, group_id, var, out, /*rendered=*/false);
    Assign(out, var, PyExpr::Call(std::string(fn) + ".expand", {}, {{"item", std::move(items)}}),
           4);
    out += "\n";
  }

  // The elements to expand over: a literal list, or a task returning the list
  // param's value in this run (an XCom, which Airflow never renders: its id
  // is among the resolved ones that _do_render_template_fields skips).
  //
  // `rendered`: the elements of a literal list are escaped for Jinja where
  // Airflow renders them, in a mapped task's expand(): the unmapped task's
  // templated fields are rendered with the expanded values, skipping only
  // those resolved at run time (DictOfListsExpandInput.resolve returns the
  // ids of all but the literal keys: airflow/models/expandinput.py in 2.10,
  // task-sdk/src/airflow/sdk/definitions/_internal/expandinput.py in 3.x),
  // and a TaskFlow task's op_kwargs, where `item` lands
  // (DecoratedMappedOperator._expand_mapped_kwargs), is a templated field.
  // A mapped task group's argument is not rendered: the tasks inside read it
  // as a MappedArgument, which render_template resolves and returns as it is
  // (Templater.render_template, ResolveMixin).
  PyExpr ItemsExpr(const ir::Foreach& foreach, const std::string& id, std::string_view var_base,
                   std::string& out, bool rendered) {
    if (foreach.param.empty()) {
      PyExpr::Exprs items;
      for (const std::string& item : foreach.items) {
        items.push_back(rendered ? Rendered(item) : Raw(item));
      }
      return PyExpr::List(std::move(items));
    }
    seen_.task = seen_.items = true;
    std::string_view var = Var(std::string(var_base) + "_items");
    PyExpr helper = HelperTask({{"task_id", PyExpr::Str(id + "-items")}}, "flowc_items");
    Assign(out, var, PyExpr::Call(std::move(helper), {}, {{"param", PyExpr::Str(foreach.param)}}),
           4);
    return PyExpr::Code(var);
  }

  // `task.sensor(task_id=..., ...)(flowc_gang)` for step `s`, recording its gang.
  // A sensor in reschedule mode frees its worker slot between pokes
  // (airflow/sensors/base.py, BaseSensorOperator `mode`); @retry is the
  // sensor's retries, each try a fresh gang; @timeout is not
  // execution_timeout, which would bound each poke alone (the sensor's
  // docstring: it leaves out the reschedule delays), but flowc_gang's
  // timeout_seconds, which bounds the try from the gang's creation.
  PyExpr GangTask(size_t s, const std::string& task_id) {
    const ir::Step& step = flow_.steps[s];
    seen_.task = seen_.text = true;
    seen_.gangs.push_back(s);
    Kwargs kw = {{"task_id", PyExpr::Str(task_id)}};
    AppendControlKwargs(step, kw, /*with_timeout=*/false);
    seen_.datetime = seen_.datetime || NeedsDatetime(step);
    PyExpr sensor =
        PyExpr::Call("task.sensor", {PyExpr::Code("**FLOWC_GANG_SENSOR")}, std::move(kw));
    return PyExpr::Call(std::move(sensor), {PyExpr::Code("flowc_gang")});
  }

  Kwargs GangArgs(const ir::Step& step) const {
    Kwargs call = {{"step", PyExpr::Str(step.name)}};
    if (step.timeout_seconds) {
      call.emplace_back("timeout_seconds", PyExpr::Int(*step.timeout_seconds));
    }
    return call;
  }

  PyExpr PodOperator(const ir::Step& step, const std::string& task_id, std::optional<PyExpr> cmds,
                     const char* callee) {
    seen_.pod_operator = true;
    seen_.datetime = seen_.datetime || NeedsDatetime(step);
    seen_.claims = seen_.claims || !step.pod.resources->claims.empty();
    Kwargs kw;
    kw.reserve(kMaxPodOperatorKwargs);  // one block, not five as the list grows
    kw.emplace_back("task_id", PyExpr::Str(task_id));
    kw.emplace_back("name", Rendered(step.k8s_name));
    AppendPodKwargs(step.pod, std::move(cmds), kw,
                    step.queue ? step.queue->labels : ir::KeyValues());
    AppendControlKwargs(step, kw);
    AppendQueueKwargs(step, kw);
    return PyExpr::Call(callee, {}, std::move(kw));
  }

  // The command as flowc_argv's `argv`: a template string per argument, or
  // for an argument holding {{item}} a list of templates with None for it.
  static PyExpr ArgvParts(const ir::Pod& pod, const JinjaScope& scope) {
    PyExpr::Exprs argv;
    for (const ir::Text& arg : pod.command) {
      if (!arg.refers(ir::Segment::Kind::kItem)) {
        argv.push_back(PyExpr::Str(JinjaText(arg, scope)));
        continue;
      }
      PyExpr::Exprs parts;
      for (const auto& part : JinjaParts(arg, scope)) {
        parts.push_back(part ? PyExpr::Str(*part) : PyExpr::None());
      }
      argv.push_back(PyExpr::List(std::move(parts)));
    }
    return PyExpr::List(std::move(argv));
  }

  // --- dependencies --------------------------------------------------------

  // The Python variables of nodes (dag_plan.h TaskNode, GroupNode).
  std::vector<std::string_view> VarsOf(const std::vector<size_t>& nodes) const {
    std::vector<std::string_view> out;
    for (size_t node : nodes) out.push_back(node_vars_[node]);
    return out;
  }

  // `source >> target` or `source >> [targets]`; `reverse` writes the targets
  // first (`[targets] >> source`).
  static std::string EdgeLine(std::string_view source, const std::vector<std::string_view>& targets,
                              size_t indent, bool reverse = false) {
    std::string list = targets.size() == 1 ? std::string(targets.front())
                                           : fmt::format("[{}]", fmt::join(targets, ", "));
    return fmt::format("{}{} >> {}\n", std::string(indent, ' '), reverse ? list : source,
                       reverse ? source : list);
  }

  // Appends the edges at the level of `group` (dag_plan.h PlanEdges), after a
  // blank line.
  void Edges(std::optional<size_t> group, const Binding& base, size_t indent,
             std::string& out) const {
    std::vector<Edge> edges = PlanEdges(flow_, plan_, group, base);
    if (!edges.empty()) out += "\n";
    for (const Edge& edge : edges) {
      out += EdgeLine(node_vars_[edge.source], VarsOf(edge.targets), indent);
    }
  }

  const ir::Flow& flow_;
  const Plan& plan_;
  JinjaScope params_scope_;
  // The variables' names, kept in blocks rather than a string each: at
  // 100,000 tasks, freeing a string and a hash node per name cost more than
  // a tenth of what naming them did. Hashed, not ordered: nothing iterates
  // them, and in a tree of strings a look-up was 17 comparisons, each a
  // cache miss.
  std::pmr::monotonic_buffer_resource names_{std::pmr::new_delete_resource()};
  FlatMap<std::string_view, bool> used_vars_;
  std::vector<std::string_view> node_vars_;  // by node (dag_plan.h): its Python variable
  // A task's expressions fit in it, most often (PyExprArena).
  std::vector<std::byte> arena_buffer_ = std::vector<std::byte>(kArenaBytes);
  static constexpr size_t kArenaBytes = 256 << 10;
  std::set<size_t> noted_;
  DagUses seen_;  // what the body used, to check PlanUses
};

class AirflowTarget final : public Backend {
 public:
  std::string_view name() const override { return "airflow"; }
  std::string_view extension() const override { return ".py"; }
  unsigned capabilities() const override { return kForeach | kParallel | kSchedule | kParams; }

  bool Emit(const ir::Flow& flow, const EmitOptions&, OutputSink& out,
            diag::Reporter& report) const override {
    Plan plan;
    if (!MakePlan(flow, plan, report)) return false;
    DagWriter(flow, plan).Write(out);
    return true;
  }
};

}  // namespace

const Backend& AirflowBackend() {
  static const AirflowTarget backend;
  return backend;
}

}  // namespace flowc::backends::airflow
