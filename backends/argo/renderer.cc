// The Renderer's documents and pods: a flow within Argo's limits, and every template's pod
// whether or not the flow is split (renderer.h; a split flow's DAGs are in split_render.cc).
#include "backends/argo/renderer.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends/argo/argo_strings.h"
#include "backends/argo/bounded_gang.h"
#include "backends/argo/checks.h"
#include "backends/argo/layout.h"
#include "backends/argo/split.h"
#include "backends/argo/templating.h"
#include "backends/argo/trainjob_template.h"
#include "backends/k8s/jobset.h"
#include "backends/k8s/objects.h"
#include "backends/k8s/pod_yaml.h"
#include "backends/k8s/trainjob.h"
#include "backends/k8s/yaml_scalar.h"

namespace flowc::backends::argo {
namespace {

using diag::Code;
using k8s::EmitString;
using k8s::Key;
using k8s::ValueScalar;

constexpr const char* kApiVersion = "argoproj.io/v1alpha1";
// A JobSet created inside a foreach body or by a retried step gets `-` and 5
// hex digits of a hash of the creating pod's name, unique per element and per
// attempt (checks.cc counts them in the name's length).
constexpr const char* kIterationHash = "{{=sprig.trunc(5, sprig.sha1sum(pod.name))}}";

// The JobSet a resource template creates is done when the JobSet controller
// says so (status.terminalState is "Completed" or "Failed").
constexpr const char* kJobSetSucceeded = "status.terminalState == Completed";
constexpr const char* kJobSetFailed = "status.terminalState == Failed";

// A pod spec patch's text as a literal block, and in a record (which only checks strings).
void LiteralText(YAML::Emitter& out, const char* text) { out << YAML::Literal << text; }
void LiteralText(k8s::YamlRecord& out, const char* text) { out.Block(text); }

bool IsPrintableAscii(std::string_view text) {
  for (char c : text) {
    if (c < 0x20 || c > 0x7E) return false;
  }
  return true;
}

}  // namespace

Renderer::Renderer(const ir::Flow& flow, const Layout& layout, YAML::Emitter& out,
                   ArgoVersion argo_version)
    : flow_(flow), layout_(layout), out_(out), argo_version_(argo_version) {
  const std::vector<std::string>* shared = nullptr;
  for (const ir::Step& step : flow.steps) {
    if (step.parallel) continue;
    if (shared == nullptr) {
      shared = &step.pod.image_pull_secrets.get();
    } else if (*shared != step.pod.image_pull_secrets) {
      shared = nullptr;
      break;
    }
  }
  shared_pull_secrets_ = shared != nullptr && !shared->empty();
}

void Renderer::WorkflowTemplate() {
  BeginWorkflowTemplate(0);
  Dag(std::nullopt);
  for (size_t foreach_step : layout_.foreach_steps()) Dag(foreach_step);
  for (size_t i = 0; i < flow_.steps.size(); ++i) Leaf(i);
  EndWorkflowTemplate();
}

void Renderer::BeginWorkflowTemplate(size_t part, const std::string* on_exit) {
  k8s::BeginObject(out_, kApiVersion, "WorkflowTemplate");
  Metadata(PartName(flow_, part));
  Key(out_, "spec");
  out_ << YAML::Value << YAML::BeginMap;
  if (part == 0) {
    Key(out_, "entrypoint");
    out_ << YAML::Value;
    EmitString(out_, layout_.entry());
    Arguments();
    SharedPullSecrets(out_);
  }
  if (on_exit != nullptr) {
    Key(out_, "onExit");
    out_ << YAML::Value;
    EmitString(out_, *on_exit);
  }
  Key(out_, "templates");
  out_ << YAML::Value << YAML::BeginSeq;
}

void Renderer::EndWorkflowTemplate() {
  out_ << YAML::EndSeq;
  out_ << YAML::EndMap;  // spec
  out_ << YAML::EndMap;
}

void Renderer::CronWorkflow() {
  out_ << YAML::BeginDoc;
  k8s::BeginObject(out_, kApiVersion, "CronWorkflow");
  Metadata(flow_.k8s_name);
  Key(out_, "spec");
  out_ << YAML::Value << YAML::BeginMap;
  // `schedules` (Argo 3.6+; v4 dropped the singular `schedule`).
  Key(out_, "schedules");
  out_ << YAML::Value << YAML::BeginSeq;
  EmitString(out_, flow_.schedule->cron);
  out_ << YAML::EndSeq;
  if (!flow_.schedule->timezone.empty()) {
    Key(out_, "timezone");
    out_ << YAML::Value;
    EmitString(out_, flow_.schedule->timezone);
  }
  Key(out_, "workflowSpec");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "workflowTemplateRef");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "name");
  out_ << YAML::Value;
  EmitString(out_, flow_.k8s_name);
  out_ << YAML::EndMap << YAML::EndMap;
  out_ << YAML::EndMap;  // spec
  out_ << YAML::EndMap;
}

void Renderer::CheckStrings() {
  k8s::YamlRecord secrets;
  SharedPullSecrets(secrets);
  for (size_t i = 0; i < flow_.steps.size(); ++i) {
    if (flow_.steps[i].parallel) {
      Manifest(i);
    } else {
      k8s::YamlRecord container;
      Container(container, i);
    }
  }
}

bool Renderer::ReportUnsafeLiterals(diag::Reporter& report) const {
  for (const auto& [step, tag] : unsafe_) {
    const ir::Step& s = flow_.steps[step];
    ReportArgoTag(report, s.range, fmt::format("step '{}'", s.name), "text", tag,
                  "build the braces at run time instead, e.g. '{''{' in a shell command");
  }
  return unsafe_.empty();
}

// Argo takes imagePullSecrets only for a whole workflow: the spec has the
// field, a template does not (the v3.7 and v4.1 WorkflowTemplate CRDs in
// compiler/validate/schemas; WorkflowSpec in argo-workflows pkg/apis/
// workflow/v1alpha1/workflow_types.go). Every step that runs a pod of its
// own asks for the same ones.
template <class Out>
void Renderer::SharedPullSecrets(Out& out) {
  if (!shared_pull_secrets_) return;
  for (size_t i = 0; i < flow_.steps.size(); ++i) {
    if (flow_.steps[i].parallel) continue;
    ArgoStrings strings({RefStyle::kContainer, false, in_part_}, flow_.steps[i].pod);
    k8s::EmitImagePullSecrets(out, flow_.steps[i].pod, strings);
    Collect(i, strings);
    break;
  }
}

void Renderer::Metadata(const std::string& name) {
  Key(out_, "metadata");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "name");
  out_ << YAML::Value;
  EmitString(out_, name);
  // Every step agrees (Checker::CheckNamespace).
  const std::string& ns = flow_.steps.front().pod.namespace_;
  if (!ns.empty()) {
    Key(out_, "namespace");
    out_ << YAML::Value;
    EmitString(out_, ns);
  }
  out_ << YAML::EndMap;
}

// Parameter values are strings; a required param has no value, so Argo
// refuses to submit the workflow without one.
void Renderer::Arguments() {
  if (flow_.params.empty()) return;
  Key(out_, "arguments");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "parameters");
  out_ << YAML::Value << YAML::BeginSeq;
  for (const ir::Param& param : flow_.params) {
    out_ << YAML::BeginMap;
    Key(out_, "name");
    out_ << YAML::Value;
    EmitString(out_, param.name);
    if (param.default_json) {
      Key(out_, "value");
      out_ << YAML::Value;
      std::string value = ParamValue(param);
      if (param.type == ir::Param::Type::kList && IsPrintableAscii(value)) {
        out_ << YAML::SingleQuoted << value;  // JSON reads better without escaped quotes
      } else {
        EmitString(out_, value);
      }
    }
    out_ << YAML::EndMap;
  }
  out_ << YAML::EndSeq << YAML::EndMap;
}

// `inputs: {parameters: [{name: item}]}`, for the templates of a body.
void Renderer::ItemInputs(std::optional<size_t> scope) {
  if (!scope) return;
  Key(out_, "inputs");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "parameters");
  out_ << YAML::Value << YAML::BeginSeq;
  out_ << YAML::BeginMap;
  Key(out_, "name");
  ValueScalar(out_, kItemParameter);
  out_ << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
}

void Renderer::ItemArgument(const std::string& value) {
  Key(out_, "arguments");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "parameters");
  out_ << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  Key(out_, "name");
  ValueScalar(out_, kItemParameter);
  Key(out_, "value");
  out_ << YAML::Value;
  EmitString(out_, value);
  out_ << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
}

// The DAG of the entrypoint (`scope` unset) or of a foreach body. Nothing
// about pods goes here: Argo ignores scheduling fields on a DAG template.
void Renderer::Dag(std::optional<size_t> scope) {
  out_ << YAML::BeginMap;
  Key(out_, "name");
  out_ << YAML::Value;
  EmitString(out_, scope ? layout_.body_name(*scope) : layout_.entry());
  ItemInputs(scope);
  Key(out_, "dag");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "tasks");
  out_ << YAML::Value << YAML::BeginSeq;
  for (size_t i = 0; i < flow_.steps.size(); ++i) {
    if (Layout::ScopeOf(flow_.steps[i]) != scope) continue;
    StepTask(i, scope);
    if (flow_.steps[i].foreach) BodyTask(i);
  }
  out_ << YAML::EndSeq << YAML::EndMap;
  out_ << YAML::EndMap;
}

void Renderer::StepTask(size_t step, std::optional<size_t> scope) {
  out_ << YAML::BeginMap;
  NameAndTemplate(layout_.step_name(step));
  std::vector<std::string> depends;
  for (size_t predecessor : flow_.steps[step].predecessors) {
    std::optional<std::string> task = layout_.TaskFor(predecessor, scope);
    if (!task) continue;  // the foreach step that starts this body
    bool seen = false;
    for (const std::string& d : depends) seen |= d == *task;
    if (!seen) depends.push_back(std::move(*task));
  }
  Depends(depends);
  if (scope) ItemArgument(ItemInput());
  out_ << YAML::EndMap;
}

// The task that runs the body of `foreach_step` once per element.
void Renderer::BodyTask(size_t foreach_step) {
  out_ << YAML::BeginMap;
  NameAndTemplate(layout_.body_name(foreach_step));
  Depends({layout_.step_name(foreach_step)});
  ItemArgument(ExpandedItem());
  Items(foreach_step);
  out_ << YAML::EndMap;
}

// Argo reads the items with the task, strictly, before it iterates: they
// are written encoded, and decoded where they are used (templating.h).
void Renderer::Items(size_t foreach_step) {
  const ir::Foreach& foreach = *flow_.steps[foreach_step].foreach;
  if (!foreach.param.empty()) {
    Key(out_, "withParam");
    out_ << YAML::Value;
    EmitString(out_, ItemsOfParam(foreach.param));
  } else {
    Key(out_, "withItems");
    out_ << YAML::Value << YAML::BeginSeq;
    for (const std::string& item : foreach.items) EmitString(out_, EncodeItem(item));
    out_ << YAML::EndSeq;
  }
}

// A task's `name` and `template`, which flowc names alike. Quoted like
// any string where YAML 1.1 would read a step named `on` as a bool.
void Renderer::NameAndTemplate(const std::string& name) {
  Key(out_, "name");
  out_ << YAML::Value;
  EmitString(out_, name);
  Key(out_, "template");
  out_ << YAML::Value;
  EmitString(out_, name);
}

// A bare task name means "succeeded" (or skipped, as an empty foreach is).
void Renderer::Depends(const std::vector<std::string>& tasks) {
  if (tasks.empty()) return;
  std::string depends;
  for (const std::string& task : tasks) {
    if (!depends.empty()) depends += " && ";
    depends += task;
  }
  Key(out_, "depends");
  out_ << YAML::Value;
  EmitString(out_, depends);
}

void Renderer::Leaf(size_t i) {
  const ir::Step& step = flow_.steps[i];
  out_ << YAML::BeginMap;
  Key(out_, "name");
  out_ << YAML::Value;
  EmitString(out_, layout_.step_name(i));
  ItemInputs(Layout::ScopeOf(step));
  if (BoundsGang(step)) {
    // A DAG around the template that creates the gang, and the one that deletes it.
    const bool in_body = Layout::ScopeOf(step).has_value();
    EmitBoundedGangDag(out_, step, layout_, i, in_body, RunIdRef(in_part_));
    RetryStrategy(out_, step);
    out_ << YAML::EndMap;
    out_ << YAML::BeginMap;
    Key(out_, "name");
    out_ << YAML::Value;
    EmitString(out_, layout_.gang_name(i));
    EmitGangInputs(out_, in_body);
    JobSetResource(i);
    out_ << YAML::EndMap;
    EmitGangDelete(out_, step, layout_.delete_name(i));
    return;
  }
  if (step.parallel) {
    JobSetResource(i);
  } else {
    Container(out_, i);
  }
  out_ << YAML::EndMap;
}

// A container template: the whole pod of the step. Pod-level fields go on
// the template, where Argo takes them for the pod; imagePullSecrets, which
// Argo takes only for a whole workflow, as a patch of this pod's spec
// unless the workflow has them.
template <class Out>
void Renderer::Container(Out& out, size_t i) {
  const ir::Step& step = flow_.steps[i];
  ArgoStrings strings(
      {RefStyle::kContainer, ir::CommandRefers(step.pod, graph::Segment::Kind::kItem), in_part_},
      step.pod);
  // A plain step's pod is what Kueue admits (its pod integration): the queue labels go
  // on the template's metadata, which Argo gives the pod (kueue site/content/en/docs/tasks/
  // run/external_workloads/argo_workflow.md, "a different LocalQueue per template").
  const ir::KeyValues& queue_labels = step.queue ? step.queue->labels : ir::KeyValues();
  if (!step.pod.labels.empty() || !step.pod.annotations.empty() || !queue_labels.empty()) {
    Key(out, "metadata");
    out << YAML::Value << YAML::BeginMap;
    k8s::EmitPodMetadataFields(out, step.pod, strings, queue_labels);
    out << YAML::EndMap;
  }
  k8s::EmitPlacementFields(out, step.pod, strings);
  // DRA claims: v4.1 templates take them as `resourceClaims`, which the
  // controller copies into the pod's spec (argoproj/argo-workflows#16587,
  // Template.ResourceClaims in pkg/apis/workflow/v1alpha1/workflow_types.go);
  // earlier versions have no such field and take them in the patch below.
  const bool typed_claims = argo_version_ == ArgoVersion::k4_1;
  if (typed_claims) k8s::EmitResourceClaims(out, step.pod, strings);
  // Pod fields an Argo template lacks go in a patch of the pod's spec,
  // which Argo applies (strategic merge) to the pod it builds:
  // imagePullSecrets unless the workflow has them, and resourceClaims
  // before v4.1.
  bool patch_pull_secrets = !shared_pull_secrets_ && !step.pod.image_pull_secrets.empty();
  bool patch_claims = !typed_claims && !step.pod.resource_claims.empty();
  if (patch_pull_secrets || patch_claims) {
    YAML::Emitter patch;
    patch << YAML::BeginMap;
    if (patch_pull_secrets) k8s::EmitImagePullSecrets(patch, step.pod, strings);
    if (patch_claims) k8s::EmitResourceClaims(patch, step.pod, strings);
    patch << YAML::EndMap;
    Key(out, "podSpecPatch");
    out << YAML::Value;
    LiteralText(out, patch.c_str());
  }
  Key(out, "container");
  out << YAML::Value;
  k8s::EmitContainer(out, step.pod, strings);
  RetryStrategy(out, step);
  if (step.timeout_seconds) {
    Key(out, "activeDeadlineSeconds");
    out << YAML::Value << *step.timeout_seconds;
  }
  Collect(i, strings);
}

// `retryStrategy` for @retry: every failure is retried, as on every other
// target, after the step's wait.
template <class Out>
void Renderer::RetryStrategy(Out& out, const ir::Step& step) {
  if (!Retried(step)) return;
  Key(out, "retryStrategy");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "limit");
  out << YAML::Value << step.retry->times;
  Key(out, "retryPolicy");
  ValueScalar(out, "Always");
  if (step.retry->minutes_between_retries > 0) {
    Key(out, "backoff");
    out << YAML::Value << YAML::BeginMap;
    Key(out, "duration");
    out << YAML::Value;
    EmitString(out, fmt::format("{}m", step.retry->minutes_between_retries));
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

// The step's gang as Argo creates it: its JobSet (or TrainJob) manifest.
std::string Renderer::Manifest(size_t i) {
  const ir::Step& step = flow_.steps[i];
  // Named after the workflow, so a run's JobSets are told apart; inside a
  // foreach body or when retried also after the creating pod, so each
  // element's and each attempt's is.
  std::string name = fmt::format("{}-{}", RunIdRef(in_part_), step.k8s_name);
  if (BoundsGang(step)) {
    name = GangInput();  // named by the DAG around it (bounded_gang.h)
  } else if (HasIterationSuffix(step)) {
    name += fmt::format("-{}", kIterationHash);
  }
  // Argo splices values into the manifest's text: with every string
  // double-quoted, the JSON escaping that kManifest references apply to
  // each value keeps it inside its string.
  bool item = ir::CommandRefers(step.pod, graph::Segment::Kind::kItem);
  bool spliced = item || ir::CommandRefers(step.pod, graph::Segment::Kind::kParam);
  // An item's expression is evaluated in Argo's second pass, when a brace
  // that the first pass yielded anywhere before it in the manifest's text
  // would already have swallowed it.
  ArgoStrings strings({spliced ? RefStyle::kManifest : RefStyle::kContainer, item, in_part_},
                      step.pod);
  YAML::Emitter manifest;
  std::optional<k8s::DoubleQuotedStrings> quoted;
  if (spliced) quoted.emplace(manifest);
  // A @trainjob step's gang is a TrainJob, named the same way.
  if (step.trainjob) {
    k8s::EmitStepTrainJob(manifest, flow_, step, name, strings);
  } else {
    k8s::EmitStepJobSet(manifest, flow_, step, name, strings);
  }
  Collect(i, strings);
  return manifest.c_str();
}

// A resource template that creates the step's JobSet and waits for it.
// Argo retries the step: each attempt creates a JobSet of its own after the
// step's wait, so the wait is honoured and the attempts show in Argo, and
// the JobSet itself (built without the step's @retry) fails at its first
// failure. With @timeout the template is the gang's inside a DAG that
// retries (bounded_gang.h), and its pod's deadline bounds the whole wait,
// time in a queue included; @timeout stays each Job's deadline too.
void Renderer::JobSetResource(size_t i) {
  const ir::Step& step = flow_.steps[i];
  std::string manifest = Manifest(i);
  Key(out_, "resource");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "action");
  ValueScalar(out_, "create");
  // The workflow owns the JobSet: deleting the workflow deletes it.
  Key(out_, "setOwnerReference");
  out_ << YAML::Value << true;
  Key(out_, "successCondition");
  out_ << YAML::Value
       << (step.trainjob ? TrainJobSuccessCondition(*step.trainjob, step.queue.has_value())
                         : kJobSetSucceeded);
  Key(out_, "failureCondition");
  out_ << YAML::Value << (step.trainjob ? TrainJobFailureCondition() : kJobSetFailed);
  Key(out_, "manifest");
  out_ << YAML::Value << YAML::Literal << manifest;
  out_ << YAML::EndMap;
  if (BoundsGang(step)) {
    Key(out_, "activeDeadlineSeconds");
    out_ << YAML::Value << *step.timeout_seconds;
    return;
  }
  RetryStrategy(out_, step);
}

void Renderer::Collect(size_t step, const ArgoStrings& strings) {
  for (const std::string& tag : strings.unsafe()) {
    bool seen = false;
    for (const auto& [s, t] : unsafe_) seen |= s == step && t == tag;
    if (!seen) unsafe_.emplace_back(step, tag);
  }
}

}  // namespace flowc::backends::argo
