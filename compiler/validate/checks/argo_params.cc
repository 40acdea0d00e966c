// Argo's variable references, judged as argo-workflows workflow/validate/validate.go judges them
// at submission (read in its v4 source, whose names come from util/variables/keys, and in its v3
// source: the rules below are the same in both, so for --argo-version 4.1 and 3.7):
//
// - ValidateWorkflow's globals: "workflow.parameters.NAME" for each of spec.arguments.parameters,
//   and, when there is at least one, "workflow.parameters" and "workflow.parameters.json"
//   (common.GlobalVarWorkflowParameters, GlobalVarWorkflowParametersJSON; v4: varkeys
//   WorkflowParametersAll, WorkflowParametersJSON). A WorkflowTemplate's workflow parameters may
//   come from the Workflow that uses it: resolveAllVariables lets every "workflow.parameters"
//   tag pass there (workflowTemplateValidation), and so does a Workflow with a
//   workflowTemplateRef, whose parameters merge with the template's (util.MergeParameters).
// - validateInputs: "inputs.parameters.NAME" and "inputs.artifacts.NAME[.path]" for the
//   template's own inputs. "{{inputs.parameters}}" always resolves: common.SubstituteParams
//   (workflow/common/util.go) replaces it with the inputs as JSON before any check, with or
//   without inputs.
// - Which text is checked: validateTemplate runs common.ProcessArgs, then a leaf template
//   (container, script, resource, suspend, data, http, plugin, containerSet) is checked whole
//   (validateLeaf); a steps or DAG template only in its steps, tasks, DAG target and outputs
//   (validateSteps, validateDAG, validateOutputs). An inline template is checked with the
//   enclosing step's scope and its own input parameters (validateSteps' and validateDAG's
//   stepScope and taskScope).
// - resolveAllVariables fails on a tag it cannot resolve ("failed to resolve {{TAG}}"), and
//   only on tags under the prefixes of common.GlobalVarValidWorkflowVariablePrefix; expression
//   tags ("{{=...}}") are never checked (util/template/validate.go).
//
// This judges the inputs and workflow parameters only. The rest of Argo's variables (docs/
// variables.md: workflow.name, .namespace, .uid, .mainEntrypoint, .serviceAccountName,
// .labels.*, .annotations.*, .creationTimestamp.*, .priority, .status, .failures, .duration,
// .scheduledTime, .outputs.*; steps.*, tasks.*, item, pod.name, node.name, retries, lastRetry.*,
// outputs.*, metric variables) always pass: Argo resolves most of them against a scope that
// depends on the controller's configuration (workflowDefaults' labels) or the call graph, and
// a check that guessed them could refuse what Argo accepts. docs/validate.md lists them.
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

// strings.TrimSpace on the tag as it stands in the template's JSON (json.Marshal), where a tab
// or a newline is written as an escape ("\t", "\n") and so is not trimmed: only spaces are.
std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
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
    std::string help;
    if (StartsWith(tag, "inputs.parameters.")) {
      names = &scope.parameters;
      name = tag.substr(18);
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
      // validate.go sets "workflow.parameters.json" beside the parameters, when there is one.
      if (name == "json" && !scope.workflow->empty()) names = nullptr;
      if (name == "json") help = "Argo sets it when spec.arguments.parameters has a parameter";
    } else if (scope.workflow != nullptr && tag == "workflow.parameters" &&
               scope.workflow->empty()) {
      names = scope.workflow;
      where = "spec.arguments.parameters";
      help = "Argo sets it when spec.arguments.parameters has a parameter";
    }
    if (names == nullptr || (!name.empty() && names->count(name) > 0)) {
      open = close;
      continue;
    }
    if (help.empty() && !name.empty()) {
      help = diag::DidYouMean(name, std::vector<std::string_view>(names->begin(), names->end()));
    }
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

// A template as validateTemplate reads it: a leaf whole (validateLeaf), a steps or DAG template
// in its steps, tasks, DAG target and outputs only (validateSteps, validateDAG,
// validateOutputs); its other fields (metadata, a memoize key, ...) are not resolved at
// submission.
void WalkTemplate(const Sink& sink, const Json& tmpl, const Path& at, const Scope& scope) {
  const Json* dag = Get(tmpl, "dag");
  const Json* steps = Get(tmpl, "steps");
  if (dag == nullptr && steps == nullptr) {
    Walk(sink, tmpl, at, scope);
    return;
  }
  if (steps != nullptr) Walk(sink, *steps, at.Key("steps"), scope);
  if (const Json* tasks = Get(dag, "tasks")) Walk(sink, *tasks, at.Key("dag").Key("tasks"), scope);
  if (const Json* target = Get(dag, "target")) {
    Walk(sink, *target, at.Key("dag").Key("target"), scope);
  }
  if (const Json* outputs = Get(tmpl, "outputs")) Walk(sink, *outputs, at.Key("outputs"), scope);
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
    WalkTemplate(sink, templates[i], at.Key("templates").Index(i), scope);
  }
}

}  // namespace flowc::validate::checks
