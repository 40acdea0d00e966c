// The Argo resource template of a @trainjob step: the success and failure
// conditions Argo evaluates on the TrainJob it creates. The template itself
// is a @parallel step's (renderer.cc JobSetResource), its manifest the
// TrainJob backends/k8s/trainjob.h writes.
//
// Argo's conditions are Kubernetes label selectors whose keys are gjson
// paths into the resource (workflow/executor/resource.go: labels.Parse, then
// gjsonLabels.Get on each key). A key must be a label key, so a path can
// name list elements by index only, never search a list; a success
// condition's requirements must all match, and any one of a failure
// condition's fails the step (matchConditions). The TrainJob reports
// `Complete` and `Failed` in status.conditions, a list whose order depends on
// what happened before (a TrainJob that Kueue suspended first has its
// `Suspended` condition first), and each replicated job's Job counts in
// status.jobsStatus.
#ifndef FLOWC_BACKENDS_ARGO_TRAINJOB_TEMPLATE_H_
#define FLOWC_BACKENDS_ARGO_TRAINJOB_TEMPLATE_H_

#include <string>

#include "compiler/ir/ir.h"

namespace flowc::backends::argo {

// Succeeded: with flowc's runtime, whose only replicated job is the
// trainer's, its Job has succeeded (`status.jobsStatus.0.succeeded == 1`),
// wherever the Complete condition lands; with a referenced runtime, whose
// jobs flowc does not know, the first condition is Complete, or with `queued` (@queue: the
// TrainJob is created suspended, backends/k8s/trainjob.cc) the second, after Suspended.
std::string TrainJobSuccessCondition(const ir::TrainJob& trainjob, bool queued);

// Failed: any of the (at most 8, the CRD's maxItems) conditions is Failed;
// the Trainer sets it only with status True (trainjob_controller.go
// setFailedCondition; plugins/jobset Status copies the JobSet's when True).
std::string TrainJobFailureCondition();

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_TRAINJOB_TEMPLATE_H_
