#include "backends/argo/trainjob_template.h"

#include <fmt/format.h>

#include "backends/k8s/trainjob.h"

namespace flowc::backends::argo {
namespace {

// TrainJobStatus.conditions: +kubebuilder:validation:MaxItems=8
// (pkg/apis/trainer/v1alpha1/trainjob_types.go).
constexpr int kMaxConditions = 8;

}  // namespace

std::string TrainJobSuccessCondition(const ir::TrainJob& trainjob, bool queued) {
  if (trainjob.emitted_runtime()) {
    // One replicated job of one Job (replicas 1): succeeded is 1 once all
    // its pods have, which is when the JobSet, and so the TrainJob, is
    // complete. jobsStatus copies the JobSet's replicatedJobsStatus
    // (plugins/jobset/jobset.go Status).
    return "status.jobsStatus.0.succeeded == 1";
  }
  // A TrainJob created suspended has Suspended at index 0 for good: the Trainer sets it True
  // on its first reconcile and False, in place, once resumed (trainjob_controller.go
  // setSuspendedCondition, meta.SetStatusCondition), so Complete is appended after it.
  return fmt::format("status.conditions.{}.type == {}", queued ? 1 : 0, k8s::kTrainJobComplete);
}

std::string TrainJobFailureCondition() {
  std::string condition;
  for (int i = 0; i < kMaxConditions; ++i) {
    if (i > 0) condition += ",";
    condition += fmt::format("status.conditions.{}.type == {}", i, k8s::kTrainJobFailed);
  }
  return condition;
}

}  // namespace flowc::backends::argo
