// Argo's variable references: a `{{inputs.parameters.x}}` must name an input the template
// declares, and in a Workflow or CronWorkflow a `{{workflow.parameters.x}}` one of
// spec.arguments.parameters. argo-workflows workflow/validate/validate.go builds each
// template's scope from its inputs (validateInputs: "inputs.parameters.NAME",
// "inputs.parameters" when there is any, "inputs.artifacts.NAME[.path]") and the workflow's
// arguments ("workflow.parameters.NAME"), then resolveAllVariables fails on a tag it cannot
// resolve: "failed to resolve {{TAG}}". A WorkflowTemplate's workflow parameters may come from
// the Workflow that uses it, so Argo leaves them unchecked there, as this does. Expressions
// (`{{=...}}`) are evaluated at run time and not judged; other tags (steps., tasks., item,
// workflow.name) need the engine's run-time scope and are left alone.
#include <fmt/format.h>

#include "compiler/diag/suggest.h"
#include "compiler/validate/checks/internal.h"

namespace flowc::validate::checks {
namespace {

struct Scope {
  NameSet parameters;                 // inputs.parameters
  NameSet artifacts;                  // inputs.artifacts
  const NameSet* workflow = nullptr;  // workflow.parameters; null: not checked
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

void AddInputs(const Json& tmpl, Scope& scope) {
  const Json* inputs = Get(tmpl, "inputs");
  for (const Json& p : Items(Get(inputs, "parameters"))) {
    if (const std::string* name = Str(Get(p, "name"))) scope.parameters.insert(*name);
  }
  for (const Json& a : Items(Get(inputs, "artifacts"))) {
    if (const std::string* name = Str(Get(a, "name"))) scope.artifacts.insert(*name);
  }
}

// The unresolved tag of `text`, with a help, or nothing.
void CheckString(const Sink& sink, std::string_view text, const Path& at, const Scope& scope) {
  for (size_t open = text.find("{{"); open != std::string_view::npos;
       open = text.find("{{", open + 2)) {
    size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos) return;
    std::string_view tag = Trim(text.substr(open + 2, close - open - 2));
    const NameSet* names = nullptr;
    std::string_view name;
    std::string where;
    if (StartsWith(tag, "inputs.parameters.")) {
      names = &scope.parameters;
      name = tag.substr(18);
      where = "the template's inputs.parameters";
    } else if (tag == "inputs.parameters" && scope.parameters.empty()) {
      names = &scope.parameters;
      where = "the template's inputs.parameters";
    } else if (StartsWith(tag, "inputs.artifacts.")) {
      names = &scope.artifacts;
      name = tag.substr(17);
      if (name.size() > 5 && name.substr(name.size() - 5) == ".path") name.remove_suffix(5);
      where = "the template's inputs.artifacts";
    } else if (scope.workflow != nullptr && StartsWith(tag, "workflow.parameters.")) {
      names = scope.workflow;
      name = tag.substr(20);
      where = "spec.arguments.parameters";
    } else if (scope.workflow != nullptr && tag == "workflow.parameters" &&
               scope.workflow->empty()) {
      names = scope.workflow;
      where = "spec.arguments.parameters";
    }
    if (names == nullptr || (!name.empty() && names->count(name) > 0)) {
      open = close;
      continue;
    }
    std::string help =
        name.empty()
            ? ""
            : diag::DidYouMean(name, std::vector<std::string_view>(names->begin(), names->end()));
    if (help.empty()) help = fmt::format("declare it in {}", where);
    sink.Add(at, fmt::format("failed to resolve {{{{{}}}}}", tag), help);
    open = close;
  }
}

void Walk(const Sink& sink, const Json& node, const Path& at, const Scope& scope) {
  if (node.is_string()) {
    CheckString(sink, node.get_ref<const std::string&>(), at, scope);
  } else if (node.is_object()) {
    for (const auto& [key, value] : node.items()) {
      // Most values are plain strings and numbers: their paths are not built.
      if (!value.is_structured() &&
          !(value.is_string() && IsTemplated(value.get_ref<const std::string&>()))) {
        continue;
      }
      if (key == "inline" && value.is_object()) {
        // An inline template resolves its own inputs, and sees the task's scope besides
        // (validateDAG adds the inline inputs to the task's scope).
        Scope inner = scope;
        AddInputs(value, inner);
        Walk(sink, value, at.Key(key), inner);
      } else {
        Walk(sink, value, at.Key(key), scope);
      }
    }
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) {
      if (node[i].is_structured() ||
          (node[i].is_string() && IsTemplated(node[i].get_ref<const std::string&>()))) {
        Walk(sink, node[i], at.Index(i), scope);
      }
    }
  }
}

}  // namespace

void CheckArgoParameters(const Sink& sink, const Json& wf, const Path& at, std::string_view kind) {
  NameSet workflow;
  for (const Json& p : Items(Get(Get(wf, "arguments"), "parameters"))) {
    if (const std::string* name = Str(Get(p, "name"))) workflow.insert(*name);
  }
  bool check_workflow =
      (kind == "Workflow" || kind == "CronWorkflow") && Get(wf, "workflowTemplateRef") == nullptr;
  const Json::array_t& templates = Items(Get(wf, "templates"));
  for (size_t i = 0; i < templates.size(); ++i) {
    Scope scope;
    scope.workflow = check_workflow ? &workflow : nullptr;
    AddInputs(templates[i], scope);
    Walk(sink, templates[i], at.Key("templates").Index(i), scope);
  }
}

}  // namespace flowc::validate::checks
