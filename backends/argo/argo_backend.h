// The Argo Workflows target (`flowc compile --target argo`), registered in
// backends/registry.cc.
//
// A flow becomes one multi-document YAML: a WorkflowTemplate whose entrypoint
// is a DAG with one task per step (a foreach body is a nested DAG that a task
// runs once per element), every step a leaf template carrying its whole pod,
// a @parallel step a resource template that creates the step's JobSet; and,
// for a scheduled flow, a CronWorkflow that runs the template. Pods are
// rendered by backends/k8s; backends/argo/templating.h spells references and
// protects literal text from Argo's `{{...}}` substitution. A flow over Argo's
// limits nests its DAGs and spreads its templates over several
// WorkflowTemplates (backends/argo/split.h).
#ifndef FLOWC_BACKENDS_ARGO_ARGO_BACKEND_H_
#define FLOWC_BACKENDS_ARGO_ARGO_BACKEND_H_

#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.h"

namespace flowc::backends::argo {

const Backend& ArgoBackend();

// The further WorkflowTemplates of a split flow (backends/argo/split.h) in `output`, the text
// Emit wrote, as `kubectl get -o name` prints them, in the stream's order: for
// `flowc compile --list-objects`.
std::vector<std::string> ListedWorkflowTemplates(const ir::Flow& flow, std::string_view output);

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_ARGO_BACKEND_H_
