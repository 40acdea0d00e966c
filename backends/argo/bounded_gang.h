// The Argo templates that bound a queued gang's wait: for a @parallel or @trainjob step with
// @timeout, a DAG that runs the template creating the gang and, when that fails, one that
// deletes it. Used by the Argo renderer (renderer.cc Leaf) for the steps that
// Layout's BoundsGang names.
//
// Why this shape (argoproj/argo-workflows, v3.7 and v4.1):
//  - A resource template runs in a pod (workflow/controller/workflowpod.go createWorkflowPod)
//    whose spec.activeDeadlineSeconds is the template's activeDeadlineSeconds: kubelet ends
//    the pod @timeout after it started, a few seconds before it creates the gang, whether the
//    gang is suspended in a Kueue queue or running, and the node fails ("Pod was active on
//    the node longer than the specified deadline").
//  - argoexec then stops waiting (cmd/argoexec/main.go cancels its context on SIGTERM;
//    workflow/executor/resource.go WaitResource returns) and deletes nothing: the gang it
//    created stays, and Kueue would start it once admitted. Its owner is the workflow
//    (setOwnerReference), which outlives the step.
//  - So the step's template is a DAG with one task, the creating template, whose exit hook
//    (DAGTask hooks.exit; workflow/controller/dag.go executeDAGTask runs it when the task has
//    completed and does not complete the task until the hook has, hooks.go runOnExitNode
//    evaluates its `expression`) deletes the gang when the task did not succeed: a resource
//    template with action delete (argoexec `kubectl delete --ignore-not-found -f`).
//  - @retry goes on that DAG (operator.go executeTemplate retries any template type), so each
//    attempt is a gang of its own, bounded, and deleted before the next attempt starts.
//  - Both templates must name the same gang, so the DAG computes the name once and hands it to
//    both: `{{node.name}}` (set for every template before its first pass, the retry's parent
//    when retried) tells a foreach's elements apart, `{{retries}}` (the retry pass) the
//    attempts. Argo's validator accepts both: it gives `retries` to the scope of a template
//    that retries (workflow/validate/validate.go validateTemplate) and does not check
//    expression tags (util/template/validate.go Validate).
#ifndef FLOWC_BACKENDS_ARGO_BOUNDED_GANG_H_
#define FLOWC_BACKENDS_ARGO_BOUNDED_GANG_H_

#include <yaml-cpp/yaml.h>

#include <string>

#include "backends/argo/layout.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::argo {

// The input parameter that carries the gang's name into both templates, and its reference.
inline constexpr const char* kGangParameter = "gang";
std::string GangInput();

// The `dag` of the step's own template: the task that creates the gang, with the exit hook
// that deletes it. `in_body`: the step sits in a foreach body and hands its element on;
// `run_id`: the run's name as the template spells it (RunIdRef).
void EmitBoundedGangDag(YAML::Emitter& out, const ir::Step& step, const Layout& layout,
                        size_t index, bool in_body, const std::string& run_id);

// The `inputs` of the creating template: the gang's name, and the element in a body.
void EmitGangInputs(YAML::Emitter& out, bool in_body);

// The whole template that deletes the gang named by its input.
void EmitGangDelete(YAML::Emitter& out, const ir::Step& step, const std::string& name);

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_BOUNDED_GANG_H_
