// The Argo Workflows target (`flowc compile --target argo`), registered in
// backends/registry.cc.
//
// A flow becomes one multi-document YAML: a WorkflowTemplate whose entrypoint
// is a DAG with one task per step (a foreach body is a nested DAG that a task
// runs once per element), every step a leaf template carrying its whole pod,
// a @parallel step a resource template that creates the step's JobSet; and,
// for a scheduled flow, a CronWorkflow that runs the template. Pods are
// rendered by backends/k8s; backends/argo/templating.h spells references and
// protects literal text from Argo's `{{...}}` substitution.
#ifndef FLOWC_BACKENDS_ARGO_ARGO_BACKEND_H_
#define FLOWC_BACKENDS_ARGO_ARGO_BACKEND_H_

#include "backends/backend.h"

namespace flowc::backends::argo {

const Backend& ArgoBackend();

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_ARGO_BACKEND_H_
