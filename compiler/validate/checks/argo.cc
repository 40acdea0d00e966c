// Argo's submit-time checks that the CRD's schema cannot express, after
// argo-workflows workflow/validate/validate.go: ValidateWorkflow (name length, entrypoint,
// onExit, hooks), validateWorkflowFieldNames and isValidWorkflowFieldName (template, step and
// task names), validateTemplateType, validateTemplateHolder (a `template` names a template of
// spec.templates), validateDAG and verifyNoCycles (dependencies, depends, targets). The messages
// are Argo's words without the "templates.NAME" prefix, which the path replaces. The pod parts
// of a template (containers, tolerations, nodeSelector) go through pod.cc, with `{{...}}`
// placeholders left to run time.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "compiler/diag/suggest.h"
#include "compiler/validate/checks/internal.h"

namespace flowc::validate::checks {
namespace {

// validate.go: maxCharsInObjectName, and maxCharsInCronWorkflowName (52: a CronWorkflow's
// workflows append "-" and a ten-digit timestamp).
constexpr size_t kMaxObjectName = 63;
constexpr size_t kMaxCronWorkflowName = 52;
// validate.go's maxWorkflowFieldNameLength.
constexpr size_t kMaxFieldName = 128;

// Every key that gives a template its type (validateTemplateType, wfv1.TemplateType).
constexpr std::string_view kTemplateTypes[] = {"container", "containerSet", "steps",   "script",
                                               "resource",  "dag",          "suspend", "data",
                                               "http",      "plugin"};

std::vector<std::string_view> Names(const NameSet& names) {
  return std::vector<std::string_view>(names.begin(), names.end());
}

// isValidWorkflowFieldName: [a-zA-Z0-9][-a-zA-Z0-9]* within 128 characters.
std::vector<std::string> FieldNameErrors(std::string_view name) {
  std::vector<std::string> errors;
  if (name.size() > kMaxFieldName) {
    errors.push_back(fmt::format("must be no more than {} characters", kMaxFieldName));
  }
  auto alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  bool ok = !name.empty() && alnum(name.front()) &&
            std::all_of(name.begin(), name.end(), [&](char c) { return alnum(c) || c == '-'; });
  if (!ok) {
    errors.push_back(
        "name must consist of alpha-numeric characters or '-', and must start with "
        "an alpha-numeric character");
  }
  return errors;
}

class ArgoChecker {
 public:
  ArgoChecker(const Sink& sink, const NameSet& templates) : sink_(sink), templates_(templates) {}

  // A `template:` (or entrypoint, onExit, hook) names a template of spec.templates.
  void TemplateRef(const Json* ref, const Path& at) const {
    const std::string* name = Str(ref);
    if (name == nullptr || name->empty() || IsTemplated(*name) || templates_.count(*name) > 0) {
      return;
    }
    sink_.Add(at, fmt::format("template name '{}' undefined", *name),
              diag::DidYouMean(*name, Names(templates_)));
  }

  void Hooks(const Json& holder, const Path& at) const {
    const Json* hooks = Get(holder, "hooks");
    if (hooks == nullptr || !hooks->is_object()) return;
    for (const auto& [key, hook] : hooks->items()) {
      TemplateRef(Get(hook, "template"), at.Key("hooks").Key(key).Key("template"));
    }
  }

  // A step or a task calls a template: by name, by templateRef, or inline.
  void Call(const Json& call, const Path& at) const {
    TemplateRef(Get(call, "onExit"), at.Key("onExit"));  // a step's or task's own exit handler
    if (Get(call, "templateRef") != nullptr) return;
    if (const Json* inline_template = Get(call, "inline")) {
      Template(*inline_template, at.Key("inline"));
      return;
    }
    if (StrOr(&call, "template").empty()) {
      sink_.Add(at.Key("template"),
                "Required value: one of template, templateRef or inline is required");
    }
    TemplateRef(Get(call, "template"), at.Key("template"));
  }

  void FieldName(const Json* name, const Path& at, NameSet& seen) const {
    const std::string* text = Str(name);
    if (text == nullptr || text->empty()) {
      sink_.Add(at, "Required value: name is required");
      return;
    }
    if (IsTemplated(*text)) return;
    std::vector<std::string> errors = FieldNameErrors(*text);
    if (!errors.empty()) {
      std::string all;
      for (const std::string& e : errors) all += (all.empty() ? "" : ";") + e;
      sink_.Add(
          at, fmt::format("Invalid value: {}: name '{}' is invalid: {}", Quote(*text), *text, all));
    }
    if (!seen.insert(*text).second) {
      sink_.Add(at,
                fmt::format("Duplicate value: {}: name '{}' is not unique", Quote(*text), *text));
    }
  }

  void Template(const Json& t, const Path& at) const {
    bool typed = std::any_of(std::begin(kTemplateTypes), std::end(kTemplateTypes),
                             [&](std::string_view k) { return Get(t, k) != nullptr; });
    if (!typed) {
      sink_.Add(at,
                "template type unspecified. choose one of: container, containerSet, steps, "
                "script, resource, dag, suspend, data, http, plugin");
    }
    Pod(t, at);
    if (const Json* dag = Get(t, "dag")) Dag(*dag, at.Key("dag"));
    const Json::array_t& groups = Items(Get(t, "steps"));
    NameSet step_names;
    for (size_t i = 0; i < groups.size(); ++i) {
      // A step group is a list of steps, or (the form argo's own marshalling writes) {steps:
      // [...]}.
      const Json* group = groups[i].is_object() ? Get(groups[i], "steps") : &groups[i];
      Path group_at =
          groups[i].is_object() ? at.Key("steps").Index(i).Key("steps") : at.Key("steps").Index(i);
      const Json::array_t& steps = Items(group);
      for (size_t j = 0; j < steps.size(); ++j) {
        Path here = group_at.Index(j);
        FieldName(Get(steps[j], "name"), here.Key("name"), step_names);
        Call(steps[j], here);
        Hooks(steps[j], here);
      }
    }
  }

  void Pod(const Json& t, const Path& at) const {
    NameSet volumes = workflow_volumes_;
    for (const Json& v : Items(Get(t, "volumes"))) {
      if (const std::string* name = Str(Get(v, "name"))) volumes.insert(*name);
    }
    // What Argo's controller does with the rest of the pod (workflow/controller/workflowpod.go,
    // createWorkflowPod), and so which rules stand:
    // - A volume mount must name a volume of the template, of the workflow (`volumes`,
    //   `templateDefaults`) or a claim of `volumeClaimTemplates`: addVolumeReferences looks it up
    //   there and nowhere else ("volume '%s' not found in workflow spec"). The volumes Argo adds
    //   itself (var-run-argo, the script's staging volume, input artifacts, argo-bin, the
    //   executor's secrets) are not candidates. A podSpecPatch, merged last, may add volumes:
    //   the mounts are then not judged.
    // - Resources, ports, tolerations and nodeSelector reach the pod as written (the main
    //   container merged over the controller's mainContainer defaults; addSchedulingConstraints),
    //   and `{{...}}` values are substituted first (substitutePodParams): the API server's
    //   rules apply, to what holds no placeholder. Argo accepts such a Workflow at submission,
    //   but every pod of the template is then refused, and the step can never run: flowc
    //   reports it as the refusal it is.
    bool patched = patched_ || Get(t, "podSpecPatch") != nullptr;
    PodScope scope;
    scope.allow_templates = true;
    scope.volumes = patched ? nullptr : &volumes;
    // The template's own container or script is the pod's main container, and Argo's controller
    // names it "main" whatever the template says, "" included (workflow/controller/
    // workflowpod.go, createWorkflowPod: `if c.Name == "" || tmpl.GetType() !=
    // wfv1.TemplateTypeContainerSet { c.Name = common.MainContainerName }`): its name is never
    // the pod's, and the API server never sees it. A containerSet keeps its names; Argo requires
    // them at submission (ContainerSetTemplate.Validate: validateWorkflowFieldNames), and the
    // pod's rule applies to them as to sidecars and init containers, whose names Argo passes to
    // the pod as written (addSidecars, addInitContainers; validate.go validateInitContainers
    // refuses an init container without one).
    PodScope main = scope;
    main.skip_name = true;
    for (const char* field : {"container", "script"}) {
      if (const Json* c = Get(t, field)) CheckContainer(sink_, *c, at.Key(field), main);
    }
    // validate.go refuses an init container named "" at submission (validateInitContainers),
    // and a containerSet's container named "" (ContainerSetTemplate.Validate,
    // pkg/apis/workflow/v1alpha1): in their words, and not again as an invalid label. A missing
    // name is the schema's (the CRD requires it).
    auto unnamed = [&](const Json& c, const Path& here, const char* message) {
      const std::string* name = Str(Get(c, "name"));
      if (name == nullptr || !name->empty()) return false;
      sink_.Add(here.Key("name"), message, "name the container");
      return true;
    };
    for (const char* field : {"initContainers", "sidecars"}) {
      const Json::array_t& list = Items(Get(t, field));
      for (size_t i = 0; i < list.size(); ++i) {
        Path here = at.Key(field).Index(i);
        PodScope rest = scope;
        rest.skip_name =
            std::string_view(field) == "initContainers" &&
            unnamed(list[i], here, "Required value: initContainers must all have container name");
        CheckContainer(sink_, list[i], here, rest);
      }
    }
    const Json::array_t& set = Items(Get(Get(t, "containerSet"), "containers"));
    for (size_t i = 0; i < set.size(); ++i) {
      Path here = at.Key("containerSet").Key("containers").Index(i);
      PodScope rest = scope;
      rest.skip_name = unnamed(set[i], here, "Required value: name is required");
      CheckContainer(sink_, set[i], here, rest);
    }
    if (const Json* resources = Get(t, "podResources")) {
      CheckResources(sink_, *resources, at.Key("podResources"), scope);
    }
    CheckTolerations(sink_, Get(t, "tolerations"), at.Key("tolerations"), true);
    CheckNodeSelector(sink_, Get(t, "nodeSelector"), at.Key("nodeSelector"), true);
  }

  void Dag(const Json& dag, const Path& at) const {
    const Json::array_t& tasks = Items(Get(dag, "tasks"));
    std::map<std::string, size_t, std::less<>> index;
    NameSet names;
    for (size_t i = 0; i < tasks.size(); ++i) {
      FieldName(Get(tasks[i], "name"), at.Key("tasks").Index(i).Key("name"), names);
      if (const std::string* name = Str(Get(tasks[i], "name"))) index.emplace(*name, i);
    }
    // validateDAG: a DAG has tasks, and with `depends` or `dependencies` a task's name may not
    // begin with a digit (the expression would read it as a number). validateDAG also refuses
    // `depends` and `dependencies` in one DAG; that rule is left out, for the conformance kit
    // passes such a DAG (its examples/valid-argo-workflowtemplate-dag.yaml) and flowc validate
    // agrees with the kit on its examples.
    if (tasks.empty()) sink_.Add(at.Key("tasks"), "must have at least one task");
    bool uses_depends = false, uses_dependencies = false;
    for (const Json& task : tasks) {
      uses_depends = uses_depends || !StrOr(&task, "depends").empty();
      uses_dependencies = uses_dependencies || !Items(Get(task, "dependencies")).empty();
    }
    for (size_t i = 0; i < tasks.size() && (uses_depends || uses_dependencies); ++i) {
      std::string_view name = StrOr(&tasks[i], "name");
      if (!name.empty() && name[0] >= '0' && name[0] <= '9') {
        sink_.Add(at.Key("tasks").Index(i).Key("name"),
                  fmt::format("name cannot begin with a digit when using either 'depends' or "
                              "'dependencies'"),
                  fmt::format("rename it, such as 'task-{}'", name));
      }
    }
    std::vector<std::vector<size_t>> edges(tasks.size());
    auto depend = [&](size_t from, const std::string& on, const Path& where) {
      auto it = index.find(on);
      if (it == index.end()) {
        sink_.Add(where, fmt::format("dependency '{}' not defined", on),
                  diag::DidYouMean(on, Names(names)));
      } else {
        edges[from].push_back(it->second);
      }
    };
    for (size_t i = 0; i < tasks.size(); ++i) {
      const Json& task = tasks[i];
      Path here = at.Key("tasks").Index(i);
      Call(task, here);
      Hooks(task, here);
      const Json::array_t& deps = Items(Get(task, "dependencies"));
      for (size_t j = 0; j < deps.size(); ++j) {
        const std::string* dep = Str(&deps[j]);
        if (dep != nullptr && !IsTemplated(*dep))
          depend(i, *dep, here.Key("dependencies").Index(j));
      }
      const std::string* depends = Str(Get(task, "depends"));
      if (depends != nullptr && !IsTemplated(*depends)) {
        for (const std::string& name : DependsTasks(*depends)) depend(i, name, here.Key("depends"));
      }
    }
    if (const std::string* target = Str(Get(dag, "target"));
        target != nullptr && !IsTemplated(*target)) {
      // validateDAGTargets: a space- or comma-separated list of task names.
      size_t start = 0;
      while (start < target->size()) {
        size_t end = target->find_first_of(" ,\t", start);
        if (end == std::string::npos) end = target->size();
        std::string name = target->substr(start, end - start);
        if (!name.empty() && index.count(name) == 0) {
          sink_.Add(at.Key("target"), fmt::format("target '{}' is not defined", name),
                    diag::DidYouMean(name, Names(names)));
        }
        start = end + 1;
      }
    }
    Cycles(tasks, edges, at);
  }

  // The task names a `depends` expression reads: names, each with an optional .Result
  // (.Succeeded, .Failed, ...), joined by &&, ||, ! and parentheses (common.GetTaskDependencies).
  static std::vector<std::string> DependsTasks(std::string_view expr) {
    std::vector<std::string> out;
    auto word = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '_' || c == '-';
    };
    for (size_t i = 0; i < expr.size();) {
      if (!word(expr[i]) || expr[i] == '-') {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < expr.size() && word(expr[j])) ++j;
      out.emplace_back(expr.substr(i, j - i));
      if (j < expr.size() && expr[j] == '.') {  // the result: letters
        ++j;
        while (j < expr.size() && std::isalpha(static_cast<unsigned char>(expr[j]))) ++j;
      }
      i = j;
    }
    return out;
  }

  // verifyNoCycles: the first cycle found, reported at the task that closes it.
  void Cycles(const Json::array_t& tasks, const std::vector<std::vector<size_t>>& edges,
              const Path& at) const {
    // Depth-first, with an explicit stack of (task, next edge): a chain of 10,000 tasks would
    // otherwise be 10,000 frames deep.
    std::vector<int> state(tasks.size(), 0);  // 0 new, 1 on the stack, 2 done
    std::vector<std::pair<size_t, size_t>> stack;
    for (size_t root = 0; root < tasks.size(); ++root) {
      if (state[root] != 0) continue;
      state[root] = 1;
      stack.emplace_back(root, 0);
      while (!stack.empty()) {
        auto& [n, next] = stack.back();
        if (next == edges[n].size()) {
          state[n] = 2;
          stack.pop_back();
          continue;
        }
        size_t d = edges[n][next++];
        if (state[d] == 0) {
          state[d] = 1;
          stack.emplace_back(d, 0);
        } else if (state[d] == 1) {
          std::string cycle;
          auto from = std::find_if(stack.begin(), stack.end(),
                                   [d](const auto& frame) { return frame.first == d; });
          for (auto it = from; it != stack.end(); ++it) {
            cycle += std::string(StrOr(&tasks[it->first], "name")) + " -> ";
          }
          cycle += StrOr(&tasks[d], "name");
          sink_.Add(at.Key("tasks").Index(n), fmt::format("dependency cycle detected: {}", cycle),
                    "a task cannot wait, directly or through others, for itself");
          return;
        }
      }
    }
  }

  void SetWorkflowVolumes(NameSet volumes, bool patched) {
    workflow_volumes_ = std::move(volumes);
    patched_ = patched;
  }

 private:
  const Sink& sink_;
  const NameSet& templates_;
  NameSet workflow_volumes_;
  bool patched_ = false;
};

}  // namespace

const Json* ArgoWorkflowSpec(const Json& doc, std::string_view kind, Path* at) {
  const Json* spec = Get(doc, "spec");
  *at = Path().Key("spec");
  if (kind == "CronWorkflow") {
    *at = at->Key("workflowSpec");
    return Get(spec, "workflowSpec");
  }
  return spec;
}

void CheckArgo(const Sink& sink, const Json& doc, std::string_view kind) {
  const std::string* name = Str(Get(Get(doc, "metadata"), "name"));
  size_t limit = kind == "CronWorkflow" ? kMaxCronWorkflowName : kMaxObjectName;
  if (name != nullptr && name->size() > limit) {
    std::string what = kind == "CronWorkflow"       ? "cron workflow"
                       : kind == "Workflow"         ? "workflow"
                       : kind == "WorkflowTemplate" ? "workflow template"
                                                    : "cluster workflow template";
    sink.Add(Path().Key("metadata").Key("name"),
             fmt::format("{} name {} must not be more than {} characters long (currently {})", what,
                         Quote(*name), limit, name->size()));
  }
  if (kind == "CronWorkflow") {
    if (const Json* spec = Get(doc, "spec")) CheckCronWorkflow(sink, *spec, Path().Key("spec"));
  }
  Path at;
  const Json* wf = ArgoWorkflowSpec(doc, kind, &at);
  if (wf == nullptr || !wf->is_object()) return;
  const Json::array_t& templates = Items(Get(wf, "templates"));
  NameSet names;
  {
    ArgoChecker names_only(sink, names);
    for (size_t i = 0; i < templates.size(); ++i) {
      names_only.FieldName(Get(templates[i], "name"), at.Key("templates").Index(i).Key("name"),
                           names);
    }
  }
  ArgoChecker argo(sink, names);
  if (Get(wf, "workflowTemplateRef") == nullptr) {
    if (Get(wf, "entrypoint") != nullptr) {
      argo.TemplateRef(Get(wf, "entrypoint"), at.Key("entrypoint"));
    } else if (kind == "Workflow" || kind == "CronWorkflow") {
      sink.Add(at.Key("entrypoint"), "Required value: spec.entrypoint is required",
               names.size() == 1 ? fmt::format("set entrypoint: {}", *names.begin()) : "");
    }
    argo.TemplateRef(Get(wf, "onExit"), at.Key("onExit"));
    argo.Hooks(*wf, at);
  }
  NameSet volumes;
  for (const Json& v : Items(Get(wf, "volumes"))) {
    if (const std::string* n = Str(Get(v, "name"))) volumes.insert(*n);
  }
  for (const Json& v : Items(Get(wf, "volumeClaimTemplates"))) {
    if (const std::string* n = Str(Get(Get(v, "metadata"), "name"))) volumes.insert(*n);
  }
  for (const Json& v : Items(Get(Get(wf, "templateDefaults"), "volumes"))) {
    if (const std::string* n = Str(Get(v, "name"))) volumes.insert(*n);
  }
  argo.SetWorkflowVolumes(std::move(volumes), Get(wf, "podSpecPatch") != nullptr);
  CheckTolerations(sink, Get(wf, "tolerations"), at.Key("tolerations"), true);
  CheckNodeSelector(sink, Get(wf, "nodeSelector"), at.Key("nodeSelector"), true);
  for (size_t i = 0; i < templates.size(); ++i) {
    argo.Template(templates[i], at.Key("templates").Index(i));
  }
  CheckArgoParameters(sink, *wf, at, kind);
}

}  // namespace flowc::validate::checks
