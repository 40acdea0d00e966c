// The Renderer's split flows: a flow over Argo's limits, cut into parts that run as Workflows
// of their own, as split.h plans them (renderer.h). The templates of steps are the same leaves
// renderer.cc writes for any flow; only the DAGs that reach them, the template that creates a
// part's Workflow and which WorkflowTemplate each template goes in are a split flow's own.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "backends/argo/layout.h"
#include "backends/argo/renderer.h"
#include "backends/argo/split.h"
#include "backends/argo/templating.h"
#include "backends/k8s/yaml_scalar.h"

namespace flowc::backends::argo {
namespace {

using k8s::EmitString;
using k8s::Key;
using k8s::ValueScalar;

// A part's Workflow is done when its phase is (workflow/executor/resource.go matchConditions
// reads the object's JSON with a label selector's requirements). Error is a Workflow's other
// failed phase (pkg/apis/workflow/v1alpha1/workflow_phase.go).
constexpr const char* kPartSucceeded = "status.phase == Succeeded";
constexpr const char* kPartFailed = "status.phase in (Failed,Error)";
// The input that names the WorkflowTemplate of the part to create.
constexpr const char* kPartParameter = "part";
// The label a part's Workflow carries: the name of the Workflow that created it, which its
// exit handler selects the parts still running by (StopParts).
constexpr const char* kParentLabel = "flowc/parent";
// The label the controller sets on a Workflow once it has completed (operator.go
// markWorkflowPhase: common.LabelKeyCompleted, "true" when Succeeded, Failed or Error).
constexpr const char* kCompletedLabel = "workflows.argoproj.io/completed";

// A value in a Workflow manifest: the body of its JSON string literal, in a YAML double-quoted
// string (a JSON escape is also a YAML one), with each `{` written `\u007b` so that no later
// pass of Argo's over the manifest's text (the pod's, workflowpod.go substitutePodParams) finds
// a tag in it. YAML reads it back to the value, byte for byte.
std::string ManifestValue(std::string_view expression) {
  return fmt::format(
      R"("{{{{=sprig.replace('{{', '\\u007b', sprig.regexReplaceAll('^.|.$', toJson({}), ''))}}}}")",
      expression);
}

// Whether the templates `entries` reach create a part's Workflow (then their WorkflowTemplate
// holds the template that does, and the exit handler that stops what it created).
bool CreatesParts(const DagPlan& plan, const std::vector<DagEntry>& entries) {
  for (const DagEntry& entry : entries) {
    if (entry.kind == DagEntry::Kind::kPart) return true;
    if (entry.kind == DagEntry::Kind::kBody && CreatesParts(plan, plan.root(entry.index))) {
      return true;
    }
  }
  return false;
}

}  // namespace

Sizes Renderer::Measure() {
  // Each template as long as it can be: with the run's name spelled as in a part.
  in_part_ = true;
  Sizes sizes;
  const size_t steps = flow_.steps.size();
  sizes.step_templates.resize(steps);
  sizes.step_tasks.resize(steps);
  sizes.body_tasks.resize(steps);
  BeginWorkflowTemplate(0);
  EndWorkflowTemplate();
  sizes.header = out_.size() + kMaxObjectName;  // a part's longer name
  out_ << YAML::BeginDoc;
  BeginWorkflowTemplate(0);
  for (size_t i = 0; i < steps; ++i) {
    size_t before = out_.size();
    Leaf(i);
    sizes.step_templates[i] = out_.size() - before;
    before = out_.size();
    StepTask(i, Layout::ScopeOf(flow_.steps[i]));
    sizes.step_tasks[i] = out_.size() - before;
    if (!flow_.steps[i].foreach) continue;
    before = out_.size();
    BodyTask(i);
    sizes.body_tasks[i] = out_.size() - before;
  }
  EndWorkflowTemplate();
  in_part_ = false;
  return sizes;
}

void Renderer::SplitWorkflowTemplates(const DagPlan& plan) {
  plan_ = &plan;
  // The parts first, so that `kubectl apply -f` creates them before what creates their
  // Workflows; in the parts, `{{run_id}}` is the parameter their creators pass on.
  in_part_ = true;
  for (size_t part = 0; part < plan.parts().size(); ++part) {
    PartWorkflowTemplate(part);
    out_ << YAML::BeginDoc;
  }
  in_part_ = false;
  const std::vector<DagEntry>& entries = plan.root(std::nullopt);
  const bool creates = CreatesParts(plan, entries);
  BeginWorkflowTemplate(0, creates ? &plan.stop_name() : nullptr);
  PlannedDag(layout_.entry(), std::nullopt, entries, std::nullopt);
  Contents(entries);
  if (creates) {
    CreatePart();
    StopParts();
  }
  EndWorkflowTemplate();
}

// A part's WorkflowTemplate: what its Workflow runs (the part's DAG) and everything that DAG
// reaches, but not the parts it creates. Its arguments are those its creator passes: the
// flow's params, the run's name, and inside a foreach body the element.
void Renderer::PartWorkflowTemplate(size_t index) {
  const Part& part = plan_->parts()[index];
  k8s::BeginObject(out_, "argoproj.io/v1alpha1", "WorkflowTemplate");
  Metadata(part.workflow_template);
  Key(out_, "spec");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "entrypoint");
  out_ << YAML::Value;
  EmitString(out_, part.task);
  Key(out_, "arguments");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "parameters");
  out_ << YAML::Value << YAML::BeginSeq;
  // Declared without a value: the creator always gives one (a default here would only hide a
  // creator that does not). CreatePart is one template for every part, so it passes the element
  // to each (empty outside a foreach body), and each declares it: a Workflow's arguments then
  // name only parameters its WorkflowTemplate has.
  std::vector<std::string> names;
  for (const ir::Param& param : flow_.params) names.push_back(param.name);
  names.push_back(kRunIdParameter);
  names.push_back(kItemParameter);
  for (const std::string& name : names) {
    out_ << YAML::BeginMap;
    Key(out_, "name");
    out_ << YAML::Value;
    EmitString(out_, name);
    out_ << YAML::EndMap;
  }
  out_ << YAML::EndSeq << YAML::EndMap;
  SharedPullSecrets(out_);
  const bool creates = CreatesParts(*plan_, part.entries);
  if (creates) {
    Key(out_, "onExit");
    out_ << YAML::Value;
    EmitString(out_, plan_->stop_name());
  }
  Key(out_, "templates");
  out_ << YAML::Value << YAML::BeginSeq;
  PlannedDag(part.task, part.scope, part.entries, index);
  Contents(part.entries);
  if (creates) {
    CreatePart();
    StopParts();
  }
  EndWorkflowTemplate();
}

// The templates `entries` reach in their WorkflowTemplate: each step's, each body's DAG and
// what it reaches; a part only needs the template that creates it (CreatePart).
void Renderer::Contents(const std::vector<DagEntry>& entries) {
  for (const DagEntry& entry : entries) {
    switch (entry.kind) {
      case DagEntry::Kind::kStep:
        Leaf(entry.index);
        break;
      case DagEntry::Kind::kBody: {
        const std::vector<DagEntry>& body = plan_->root(entry.index);
        PlannedDag(layout_.body_name(entry.index), entry.index, body, std::nullopt);
        Contents(body);
        break;
      }
      case DagEntry::Kind::kPart:
        break;
    }
  }
}

// A DAG of a split flow: the tasks `entries` of scope `scope`, in the part `part`'s DAG or in
// the scope's own. Each task waits for what its steps wait for in this DAG (split.h).
void Renderer::PlannedDag(const std::string& name, std::optional<size_t> scope,
                          const std::vector<DagEntry>& entries, std::optional<size_t> part) {
  out_ << YAML::BeginMap;
  Key(out_, "name");
  out_ << YAML::Value;
  EmitString(out_, name);
  ItemInputs(scope);
  Key(out_, "dag");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "tasks");
  out_ << YAML::Value << YAML::BeginSeq;
  for (const DagEntry& entry : entries) {
    const std::string& task = plan_->Name(entry);
    out_ << YAML::BeginMap;
    Key(out_, "name");
    out_ << YAML::Value;
    EmitString(out_, task);
    Key(out_, "template");
    out_ << YAML::Value;
    EmitString(out_, entry.kind == DagEntry::Kind::kPart ? plan_->create_name() : task);
    Depends(plan_->Depends(part, entry));
    if (entry.kind == DagEntry::Kind::kPart) {
      PartArguments(plan_->parts()[entry.index].workflow_template, scope);
    } else if (entry.kind == DagEntry::Kind::kBody) {
      ItemArgument(ExpandedItem());
      Items(entry.index);
    } else if (scope) {
      ItemArgument(ItemInput());
    }
    out_ << YAML::EndMap;
  }
  out_ << YAML::EndSeq << YAML::EndMap;
  out_ << YAML::EndMap;
}

// A part's task names the part's WorkflowTemplate and, inside a foreach body, hands the
// element on as it is (still encoded: templating.h).
void Renderer::PartArguments(const std::string& workflow_template, std::optional<size_t> scope) {
  Key(out_, "arguments");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "parameters");
  out_ << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  Key(out_, "name");
  ValueScalar(out_, kPartParameter);
  Key(out_, "value");
  out_ << YAML::Value;
  EmitString(out_, workflow_template);
  out_ << YAML::EndMap;
  if (scope) {
    out_ << YAML::BeginMap;
    Key(out_, "name");
    ValueScalar(out_, kItemParameter);
    Key(out_, "value");
    out_ << YAML::Value;
    EmitString(out_, ItemInput());
    out_ << YAML::EndMap;
  }
  out_ << YAML::EndSeq << YAML::EndMap;
}

// The template that creates a part's Workflow and waits for it (operator.go executeResource;
// argoexec `resource create` runs `kubectl create -f` and polls the object until a condition
// holds: workflow/executor/resource.go). The Workflow runs the part's WorkflowTemplate with
// the params, the run's name and the element as its arguments, and is owned by the Workflow
// that creates it, so deleting a run deletes its parts (and theirs).
void Renderer::CreatePart() {
  out_ << YAML::BeginMap;
  Key(out_, "name");
  out_ << YAML::Value;
  EmitString(out_, plan_->create_name());
  Key(out_, "inputs");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "parameters");
  out_ << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  Key(out_, "name");
  ValueScalar(out_, kPartParameter);
  out_ << YAML::EndMap << YAML::BeginMap;
  Key(out_, "name");
  ValueScalar(out_, kItemParameter);
  // Outside a foreach body there is no element: the part's Workflow gets an empty one, which
  // no template of it reads.
  Key(out_, "default");
  out_ << YAML::Value << YAML::DoubleQuoted << "";
  out_ << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
  Key(out_, "resource");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "action");
  ValueScalar(out_, "create");
  Key(out_, "successCondition");
  out_ << YAML::Value << kPartSucceeded;
  Key(out_, "failureCondition");
  out_ << YAML::Value << kPartFailed;
  Key(out_, "manifest");
  out_ << YAML::Value << YAML::Literal << PartManifest();
  out_ << YAML::EndMap;
  out_ << YAML::EndMap;
}

// The Workflow of a part, as text: every value Argo splices into it is a ManifestValue, every
// name a Kubernetes name. The owner reference is written out (what metav1.NewControllerRef
// makes for `setOwnerReference`) rather than asked for, so that the controller does not parse
// and re-marshal the manifest (operator.go executeResource), which would turn each `\u007b`
// back into a `{` before the pod's pass reads the text.
std::string Renderer::PartManifest() {
  const std::string& ns = flow_.steps.front().pod.namespace_;
  std::string text = "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata:\n";
  // The API server adds 5 characters, cutting the run's name to fit 63.
  text += fmt::format("  generateName: \"{}-\"\n", RunIdRef(in_part_));
  if (!ns.empty()) text += fmt::format("  namespace: \"{}\"\n", ns);
  text +=
      "  ownerReferences:\n"
      "    - apiVersion: argoproj.io/v1alpha1\n"
      "      kind: Workflow\n"
      "      name: \"{{workflow.name}}\"\n"
      "      uid: \"{{workflow.uid}}\"\n"
      "      controller: true\n"
      "      blockOwnerDeletion: true\n";
  text += fmt::format("  labels:\n    {}: \"{{{{workflow.name}}}}\"\n", kParentLabel);
  // The creator's service account, not the namespace's default: a part's own parts are created
  // by its pods (operator.go setGlobalParameters: the Workflow's spec.serviceAccountName).
  text +=
      "spec:\n"
      "  serviceAccountName: \"{{workflow.serviceAccountName}}\"\n"
      "  workflowTemplateRef:\n";
  text += fmt::format("    name: \"{{{{inputs.parameters.{}}}}}\"\n", kPartParameter);
  text += "  arguments:\n    parameters:\n";
  for (const ir::Param& param : flow_.params) {
    text += fmt::format("      - name: \"{}\"\n        value: {}\n", param.name,
                        ManifestValue(fmt::format("workflow.parameters['{}']", param.name)));
  }
  text += fmt::format("      - name: \"{}\"\n        value: \"{}\"\n", kRunIdParameter,
                      RunIdRef(in_part_));
  text += fmt::format("      - name: \"{}\"\n        value: {}\n", kItemParameter,
                      ManifestValue(fmt::format("inputs.parameters.{}", kItemParameter)));
  return text;
}

// The exit handler of a Workflow that creates parts: deletes those of its parts' Workflows that
// have not completed, and with them (their pods and their own parts own nothing else: owner
// references) everything they run. It is what makes `argo stop` stop a split flow whole: the
// Stop strategy kills the running pods of this Workflow, among them those that wait for its
// parts, and argoexec leaves what it created (workflow/executor/resource.go WaitResource only
// returns), but runs the exit handler (operator.go operate: onExit runs when
// GetShutdownStrategy().ShouldExecute(true), which Stop allows and Terminate does not:
// pkg/apis/workflow/v1alpha1/workflow_types.go ShutdownStrategy). A run that ends otherwise
// has waited for every part it created, so the selector finds none and the handler deletes
// nothing (a failed part's Workflow stays, for its logs). argoexec runs `kubectl delete
// --ignore-not-found <flags> -o name` for a delete with flags and no manifest
// (getKubectlArguments).
void Renderer::StopParts() {
  out_ << YAML::BeginMap;
  Key(out_, "name");
  out_ << YAML::Value;
  EmitString(out_, plan_->stop_name());
  Key(out_, "resource");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "action");
  ValueScalar(out_, "delete");
  Key(out_, "flags");
  out_ << YAML::Value << YAML::BeginSeq;
  EmitString(out_, "workflows.argoproj.io");
  EmitString(out_, "--namespace={{workflow.namespace}}");
  EmitString(out_, fmt::format("--selector={}={{{{workflow.name}}}},{}!=true", kParentLabel,
                               kCompletedLabel));
  out_ << YAML::EndSeq;
  out_ << YAML::EndMap;
  out_ << YAML::EndMap;
}

}  // namespace flowc::backends::argo
