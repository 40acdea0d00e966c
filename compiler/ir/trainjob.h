// The lowering of `@trainjob` (docs/trainjob.md): what a @parallel step
// that runs as a Kubeflow Trainer v2.3 TrainJob needs in the IR, and the
// names the Trainer gives things. Used by LowerToIr; backends/k8s/trainjob.*
// writes the TrainJob and the TrainingRuntime from it.
//
// The Trainer builds the gang's JobSet from the runtime: it is named after
// the TrainJob, its trainer job is the replicated job whose template carries
// the ancestor label below, and the container it fills in is named `node`
// (kubeflow/trainer pkg/runtime/core/trainingruntime.go newRuntimeInfo,
// pkg/runtime/framework/plugins/jobset/jobset.go Build, builder.go Trainer;
// the Trainer's own runtimes, manifests/base/runtimes/torch_distributed.yaml,
// name the job `node` too). So a @trainjob step's pod names its container
// `node`, and its FLOWC_MAIN_ADDR is `<jobset>-node-0-0.<jobset>`, the name
// the torch policy gives PET_MASTER_ADDR (plugins/torch/torch.go).
#ifndef FLOWC_IR_TRAINJOB_H_
#define FLOWC_IR_TRAINJOB_H_

#include <optional>
#include <string_view>

#include "compiler/graph/graph.h"
#include "compiler/ir/content_key.h"
#include "compiler/ir/ir.h"

namespace flowc::ir {

// The trainer's replicated job and its container.
inline constexpr const char* kTrainerJob = "node";
inline constexpr const char* kTrainerContainer = "node";
// The label that marks a runtime's replicated job as the trainer's
// (pkg/constants LabelTrainJobAncestor, AncestorTrainer).
inline constexpr const char* kTrainJobAncestorLabel = "trainer.kubeflow.org/trainjob-ancestor-step";
inline constexpr const char* kTrainJobAncestorTrainer = "trainer";
inline constexpr const char* kTrainingRuntimeKind = "TrainingRuntime";
inline constexpr const char* kClusterTrainingRuntimeKind = "ClusterTrainingRuntime";

// Fills `step.trainjob` for a step with @trainjob (`step.pod` and
// `step.parallel` already lowered). Without `runtime=`, returns the
// TrainingRuntime that carries the step's pod, named
// `<flow>-<step>-<10 hex digits of SHA-256 over its content>`: a changed pod
// gets a new runtime, so a runtime in the cluster never changes under a run.
// `hashes` hashes each distinct runtime once, however many steps share it.
std::optional<Object> LowerTrainJob(std::string_view flow_k8s_name, const graph::Step& source,
                                    Step& step, ContentHashes& hashes);

}  // namespace flowc::ir

#endif  // FLOWC_IR_TRAINJOB_H_
