// Kubeflow Trainer v2.3 objects (trainer.kubeflow.org/v1alpha1): the
// TrainJob that runs a @trainjob step, and the TrainingRuntime flowc emits
// for it. This is their one writer (DESIGN.md, "Objects beside the pods",
// "Gangs are the same"): objects.cc writes the runtime with the other
// objects, Argo's resource template (backends/argo/trainjob_template.cc) and
// Airflow's task create the TrainJob from this text. Pods come from the one
// pod renderer (pod_yaml.h).
//
// How the Trainer builds the pods from these (kubeflow/trainer v2.3,
// pkg/runtime/core/trainingruntime.go, plugins/jobset, plugins/torch): a
// JobSet named after the TrainJob from the runtime's JobSet template, whose
// trainer job (ancestor label `trainer`) gets `numNodes` pods; its container
// `node` gets the TrainJob's image, command, env and resourcesPerNode, then
// the runtime patches are merged into the job template (strategic merge),
// and the torch policy appends PET_* env and container port 29400.
#ifndef FLOWC_BACKENDS_K8S_TRAINJOB_H_
#define FLOWC_BACKENDS_K8S_TRAINJOB_H_

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string_view>

#include "backends/k8s/pod_yaml.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::k8s {

inline constexpr const char* kTrainerApiVersion = "trainer.kubeflow.org/v1alpha1";
// What a client needs to create a TrainingRuntime and to create and watch a
// TrainJob (group, version, plurals) and its terminal conditions: the Trainer sets `Complete` or
// `Failed`, with status "True", in status.conditions (pkg/apis/trainer/v1alpha1/ trainjob_types.go
// TrainJobComplete, TrainJobFailed).
inline constexpr const char* kTrainerGroup = "trainer.kubeflow.org";
inline constexpr const char* kTrainerVersion = "v1alpha1";
inline constexpr const char* kTrainJobPlural = "trainjobs";
inline constexpr const char* kTrainingRuntimePlural = "trainingruntimes";
inline constexpr const char* kTrainJobComplete = "Complete";
inline constexpr const char* kTrainJobFailed = "Failed";
// The manager of the runtime patch flowc writes (TrainJob spec.runtimePatches
// is a map keyed by manager; Kueue adds its own, `kueue.x-k8s.io/manager`).
inline constexpr const char* kRuntimePatchManager = "flowc";

// A TrainingRuntime's `spec`, as a key/value pair into the open map of the
// object (objects.cc writes apiVersion, kind and metadata).
void EmitTrainingRuntimeSpec(YAML::Emitter& out, const ir::TrainingRuntime& runtime);

// The TrainJob document that runs @trainjob step `step`, named `name` (which
// may hold the target's templating, as EmitStepJobSet's name does). It
// references the step's runtime, carries the command (a run's values live
// there), the gang's size, numProcPerNode and @timeout as its deadline; with
// a referenced runtime also the rest of the pod, through `trainer` and one
// runtime patch. No retry: the engine that creates it retries the step.
void EmitStepTrainJob(YAML::Emitter& out, const ir::Flow& flow, const ir::Step& step,
                      std::string_view name, const StringPolicy& strings);

// The length of the longest pod name of `step` in the JobSet of a TrainJob
// whose name has `trainjob_name_length` characters:
// `<trainjob>-node-0-<N-1>-<5 random>`.
size_t TrainJobPodNameLength(size_t trainjob_name_length, const ir::Step& step);

// Reports, at the step, pod names over Kubernetes' 63 characters in the
// JobSet the Trainer creates for a TrainJob with a name of `name_length`
// characters, spelled `form` for the note ("<flow>-<5 random>-<step>").
bool CheckTrainJobNames(const ir::Step& step, size_t name_length, std::string_view form,
                        diag::Reporter& report);

}  // namespace flowc::backends::k8s

#endif  // FLOWC_BACKENDS_K8S_TRAINJOB_H_
