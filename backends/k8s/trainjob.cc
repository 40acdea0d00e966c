#include "backends/k8s/trainjob.h"

#include <fmt/format.h>

#include <string>

#include "backends/k8s/jobset.h"
#include "compiler/ir/trainjob.h"

namespace flowc::backends::k8s {
namespace {

constexpr size_t kMaxNameLength = 63;
// The Job controller's 5 random characters and their dash (jobset.cc).
constexpr size_t kPodNameSuffix = 6;

// A TrainingRuntime is applied as it is: nothing templates it, and its pod
// has no command (ir.h, TrainingRuntime::pod), the only text with references.
class RuntimeStrings final : public StringPolicy {
 public:
  std::string Text(const ir::Text& text) const override { return text.ToFlowString(); }
};

// `annotations: {<exclusive topology>}` of the trainer job's template, as
// jobset.cc writes it for a step's own JobSet.
void EmitJobAnnotations(YAML::Emitter& out, const std::string& exclusive_topology) {
  if (exclusive_topology.empty()) return;
  Key(out, "annotations");
  out << YAML::Value << YAML::BeginMap;
  StringField(out, "alpha.jobset.sigs.k8s.io/exclusive-topology", exclusive_topology);
  out << YAML::EndMap;
}

// Whether a referenced runtime needs a patch for this pod: the fields that
// are not the TrainJob trainer's (image, command, env, resources) and that a
// runtime patch can hold (trainjob_types.go PodTemplatePatch, PodSpecPatch,
// ContainerPatch). compiler/graph/trainjob.cc refuses every other field.
bool NeedsPatch(const ir::Pod& pod, const ir::Parallel& parallel) {
  return !pod.labels.empty() || !pod.annotations.empty() || !pod.service_account_name.empty() ||
         !pod.node_selector.empty() || !pod.tolerations.empty() || !pod.volumes.empty() ||
         !pod.image_pull_secrets.empty() || !pod.volume_mounts.empty() ||
         pod.security_context.has_value() || !parallel.exclusive_topology.empty();
}

// `runtimePatches: [{manager: flowc, trainingRuntimeSpec: ...}]`: the pod's
// fields for the referenced runtime's trainer job. The Trainer merges the
// job template of the patch into the runtime's (strategic merge by
// batchv1.JobTemplateSpec, pkg/runtime/core/trainingruntime.go
// mergeRuntimePatches): maps merge, lists with a merge key (volumes,
// imagePullSecrets, containers, volumeMounts) merge by it, tolerations
// replace the runtime's.
void EmitRuntimePatch(YAML::Emitter& out, const ir::Step& step, const StringPolicy& strings) {
  const ir::Pod& pod = step.pod;
  if (!NeedsPatch(pod, *step.parallel)) return;
  Key(out, "runtimePatches");
  out << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  StringField(out, "manager", kRuntimePatchManager);
  Key(out, "trainingRuntimeSpec");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "template");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "replicatedJobs");
  out << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  StringField(out, "name", ir::kTrainerJob);
  Key(out, "template");
  out << YAML::Value << YAML::BeginMap;
  if (!step.parallel->exclusive_topology.empty()) {
    Key(out, "metadata");
    out << YAML::Value << YAML::BeginMap;
    EmitJobAnnotations(out, step.parallel->exclusive_topology);
    out << YAML::EndMap;
  }
  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "template");
  out << YAML::Value << YAML::BeginMap;
  if (!pod.labels.empty() || !pod.annotations.empty()) {
    Key(out, "metadata");
    out << YAML::Value << YAML::BeginMap;
    EmitPodMetadataFields(out, pod, strings);
    out << YAML::EndMap;
  }
  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  EmitPlacementFields(out, pod, strings);
  EmitImagePullSecrets(out, pod, strings);
  if (!pod.volume_mounts.empty() || pod.security_context) {
    Key(out, "containers");
    out << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    StringField(out, "name", strings.Literal(pod.container_name));
    EmitVolumeMounts(out, pod, strings);
    EmitSecurityContext(out, pod);
    out << YAML::EndMap << YAML::EndSeq;
  }
  out << YAML::EndMap;                  // pod spec
  out << YAML::EndMap;                  // pod template
  out << YAML::EndMap;                  // job spec
  out << YAML::EndMap;                  // job template
  out << YAML::EndMap << YAML::EndSeq;  // replicatedJobs
  out << YAML::EndMap;                  // JobSet spec
  out << YAML::EndMap;                  // template
  out << YAML::EndMap;                  // trainingRuntimeSpec
  out << YAML::EndMap << YAML::EndSeq;
}

}  // namespace

void EmitTrainingRuntimeSpec(YAML::Emitter& out, const ir::TrainingRuntime& runtime) {
  RuntimeStrings strings;
  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  // The torch policy: the TrainJob's numNodes and numProcPerNode override
  // these, and it gives torchrun its PET_* env (plugins/torch/torch.go).
  Key(out, "mlPolicy");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "numNodes");
  out << YAML::Value << runtime.num_nodes;
  Key(out, "torch");
  out << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::EndMap;
  out << YAML::EndMap;

  Key(out, "template");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  // The subdomain stays the JobSet's name, the TrainJob's: FLOWC_MAIN_ADDR
  // and the torch policy's PET_MASTER_ADDR both spell node 0 with it.
  EmitJobSetNetwork(out);
  Key(out, "replicatedJobs");
  out << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  StringField(out, "name", ir::kTrainerJob);
  Key(out, "replicas");
  out << YAML::Value << 1;
  Key(out, "template");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "metadata");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "labels");
  out << YAML::Value << YAML::BeginMap;
  StringField(out, ir::kTrainJobAncestorLabel, ir::kTrainJobAncestorTrainer);
  out << YAML::EndMap;
  EmitJobAnnotations(out, runtime.exclusive_topology);
  out << YAML::EndMap;  // metadata
  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  // As a step's own JobSet (jobset.cc EmitReplicatedJob): one indexed Job of
  // N pods that fails at its first failed pod; the engine retries the step,
  // and @timeout is the TrainJob's deadline.
  Key(out, "completionMode");
  ValueScalar(out, "Indexed");
  Key(out, "parallelism");
  out << YAML::Value << runtime.num_nodes;
  Key(out, "completions");
  out << YAML::Value << runtime.num_nodes;
  Key(out, "backoffLimit");
  out << YAML::Value << 0;
  Key(out, "template");
  out << YAML::Value;
  EmitPodTemplate(out, runtime.pod, strings);
  out << YAML::EndMap;  // job spec
  out << YAML::EndMap;  // job template
  out << YAML::EndMap << YAML::EndSeq;
  out << YAML::EndMap;  // JobSet spec
  out << YAML::EndMap;  // template
  out << YAML::EndMap;  // spec
}

void EmitStepTrainJob(YAML::Emitter& out, const ir::Flow& /*flow*/, const ir::Step& step,
                      std::string_view name, const StringPolicy& strings) {
  const ir::TrainJob& trainjob = *step.trainjob;
  const ir::Pod& pod = step.pod;
  const bool referenced = !trainjob.emitted_runtime();
  BeginObject(out, kTrainerApiVersion, "TrainJob");
  Key(out, "metadata");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "name");
  out << YAML::Value;
  EmitString(out, name);
  if (!pod.namespace_.empty()) StringField(out, "namespace", strings.Literal(pod.namespace_));
  // The TrainJob is what Kueue admits (its trainjob integration), not the runtime or the pods
  // (kueue site/content/en/docs/tasks/run/trainjobs.md).
  if (step.queue) EmitLabels(out, step.queue->labels, strings);
  out << YAML::EndMap;

  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "runtimeRef");
  out << YAML::Value << YAML::BeginMap;
  StringField(out, "apiGroup", kTrainerGroup);
  StringField(out, "kind", trainjob.runtime_kind);
  StringField(out, "name", strings.Literal(trainjob.runtime_name));
  out << YAML::EndMap;

  // In the order of the Trainer's struct (trainjob_types.go Trainer).
  Key(out, "trainer");
  out << YAML::Value << YAML::BeginMap;
  if (referenced && !pod.image.empty()) StringField(out, "image", strings.Literal(pod.image));
  EmitCommand(out, pod, strings);
  if (referenced) EmitEnv(out, pod, strings);
  Key(out, "numNodes");
  out << YAML::Value << step.parallel->nodes;
  if (referenced) EmitResources(out, pod, strings, "resourcesPerNode");
  if (trainjob.proc_per_node) {
    Key(out, "numProcPerNode");
    out << YAML::Value << *trainjob.proc_per_node;
  }
  out << YAML::EndMap;

  if (referenced) EmitRuntimePatch(out, step, strings);
  // A queued TrainJob is created suspended, as Kueue's webhook would make it: the Trainer then
  // records `Suspended` first, and `Complete` after it, at index 1, whoever resumes it
  // (trainjob_controller.go setSuspendedCondition keeps the condition, False once resumed, in
  // its place). Argo's success condition for a referenced runtime indexes on that
  // (backends/argo/trainjob_template.cc).
  if (step.queue) {
    Key(out, "suspend");
    out << YAML::Value << true;
  }
  // The Trainer fails the TrainJob (reason DeadlineExceeded) and deletes its
  // JobSet when the deadline passes (pkg/controller/trainjob_controller.go
  // reconcileDeadline).
  if (step.timeout_seconds) {
    Key(out, "activeDeadlineSeconds");
    out << YAML::Value << *step.timeout_seconds;
  }
  out << YAML::EndMap;  // spec
  out << YAML::EndMap;
}

size_t TrainJobPodNameLength(size_t trainjob_name_length, const ir::Step& step) {
  const int64_t pods = step.parallel ? step.parallel->nodes : 1;
  // `<trainjob>-node-0-<pod index>-<5 random>`: the Trainer's JobSet is named
  // after the TrainJob, its one replicated job has one Job (index 0).
  return trainjob_name_length + 1 + std::string_view(ir::kTrainerJob).size() + 3 +
         fmt::formatted_size("{}", pods - 1) + kPodNameSuffix;
}

bool CheckTrainJobNames(const ir::Step& step, size_t name_length, std::string_view form,
                        diag::Reporter& report) {
  const size_t length = TrainJobPodNameLength(name_length, step);
  if (length <= kMaxNameLength) return true;
  report(diag::Code::kNameTooLong, step.range,
         fmt::format("the pods of step '{}' would have {}-character names in the JobSet of its "
                     "TrainJob; Kubernetes allows at most {}",
                     step.name, length, kMaxNameLength))
      .AddNote(fmt::format("Kubeflow Trainer names the JobSet after the TrainJob, '{}', and each "
                           "pod '<trainjob>-node-0-<pod index>-<5 random characters>'",
                           form))
      .SetHelp(fmt::format("shorten the flow name or the step name by {} character{} in all",
                           length - kMaxNameLength, length - kMaxNameLength == 1 ? "" : "s"));
  return false;
}

}  // namespace flowc::backends::k8s
