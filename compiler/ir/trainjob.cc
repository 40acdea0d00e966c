#include "compiler/ir/trainjob.h"

#include <fmt/format.h>

namespace flowc::ir {

std::optional<Object> LowerTrainJob(std::string_view flow_k8s_name, const graph::Step& source,
                                    Step& step, ContentHashes& hashes) {
  const graph::TrainJobConfig& config = *source.config->trainjob;
  TrainJob trainjob;
  trainjob.proc_per_node = config.proc_per_node;
  if (!config.runtime.empty()) {
    trainjob.runtime_kind = kClusterTrainingRuntimeKind;
    trainjob.runtime_name = config.runtime;
    step.trainjob = std::move(trainjob);
    return std::nullopt;
  }
  TrainingRuntime runtime;
  runtime.num_nodes = step.parallel->nodes;
  runtime.exclusive_topology = step.parallel->exclusive_topology;
  runtime.pod = step.pod;
  runtime.pod.command.clear();  // the TrainJob's (ir.h, TrainingRuntime::pod)
  // The name is hashed from the content alone: name and namespace are set
  // after it.
  Object object{"", "", config.range, std::move(runtime)};
  object.name = fmt::format("{}-{}-{}", flow_k8s_name, step.k8s_name, hashes.Of(object));
  object.namespace_ = step.pod.namespace_;
  trainjob.runtime_kind = kTrainingRuntimeKind;
  trainjob.runtime_name = object.name;
  step.trainjob = std::move(trainjob);
  return object;
}

}  // namespace flowc::ir
