// `@trainjob`: a `@parallel` step as a Kubeflow Trainer TrainJob (docs/trainjob.md). The rules that involve the whole step, and what a step's
// `@trainjob` resolves to. The decorator table (decorators.cc) checks each
// argument's type, range and name syntax; ResolveStepConfig calls
// ResolveTrainJob once the rest of the step is resolved.
//
// With `runtime=`, the step's pod must fit into what a TrainJob can put into
// a runtime it references: Kubeflow Trainer v2.3 takes the image, command,
// env and resources through `spec.trainer`, and only some pod fields through
// `spec.runtimePatches` (pkg/apis/trainer/v1alpha1/trainjob_types.go,
// PodSpecPatch and ContainerPatch). Every other field is an error here, whose
// help says to let flowc emit the runtime instead.
#ifndef FLOWC_GRAPH_TRAINJOB_H_
#define FLOWC_GRAPH_TRAINJOB_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/parse/ast.h"

namespace flowc::graph {

struct StepConfig;

struct TrainJobConfig {
  // A ClusterTrainingRuntime the cluster has; "" means flowc emits a
  // namespaced TrainingRuntime that carries the step's whole pod.
  std::string runtime;
  std::optional<int64_t> proc_per_node;  // the TrainJob's trainer.numProcPerNode
  diag::SourceRange range;               // the decorator
};

// The env names Kubeflow Trainer's torch policy sets in the trainer's
// container (pkg/constants: TorchEnvNumNodes ... TorchEnvMasterPort); its
// webhook refuses them in a TrainJob's trainer.env (plugins/torch Validate,
// TorchRunReservedEnvNames), and in a runtime's container they would be
// overwritten.
inline constexpr const char* kTorchReservedEnv[] = {
    "PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK", "PET_MASTER_ADDR", "PET_MASTER_PORT"};

// A step's `@trainjob`, checked against the rest of its configuration
// (`config`, resolved); nullopt without one. `flow` and `step` are the valid
// decorators written on the flow and on the step, where the notes point.
// Reports, and returns nullopt with `*ok` false, a `@trainjob` without
// `@parallel`, an env name the torch policy owns, and (with `runtime=`) each
// pod field that a referenced runtime cannot be given.
std::optional<TrainJobConfig> ResolveTrainJob(const std::vector<const ast::Decorator*>& flow,
                                              const std::vector<const ast::Decorator*>& step,
                                              const StepConfig& config, diag::Reporter& report,
                                              bool* ok);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_TRAINJOB_H_
