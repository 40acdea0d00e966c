// The Airflow target's values and the one pod renderer: ir::Pod ->
// KubernetesPodOperator keyword arguments, and the step's control block
// (retries, retry_delay, execution_timeout). Used by airflow_backend.cc.
//
// DRA claims. The pod's `resourceClaims` have no KubernetesPodOperator
// argument; they go in `full_pod_spec`, whose spec the operator merges under
// its own (provider providers/cncf/kubernetes/.../operators/pod.py
// build_pod_request_obj -> pod_generator.py PodGenerator.reconcile_pods /
// reconcile_specs / merge_objects: a field the operator leaves unset is taken
// from full_pod_spec). Each entry is a plain dict in the Kubernetes 1.34
// shape, {name, resourceClaimTemplateName}, not a V1PodResourceClaim: that
// model is {name, source: V1ClaimSource} in kubernetes clients 29 and 30
// (Kubernetes 1.29/1.30 API, kubernetes/docs/V1ClaimSource.md) and {name,
// resource_claim_name, resource_claim_template_name} from 31, and a model
// takes only its own attributes: one form cannot be right for both. A dict is
// passed through unchanged: ApiClient.sanitize_for_serialization
// (kubernetes/client/api_client.py) returns a dict's items as they are and a
// model's attributes through attribute_map, and PodManager.run_pod_async
// (providers/.../utils/pod_manager.py) sends exactly that. The container's
// `resources.claims` entries are FLOWC_RESOURCE_CLAIM(name=...): the model is
// V1ResourceClaim in clients 26 to 33 and CoreV1ResourceClaim from 34 (when
// resource.k8s.io/v1 took the name for its ResourceClaim object, now
// ResourceV1ResourceClaim); the DAG picks the one its client has
// (templates/airflow/flowc_models.py). Both have `name` (32 adds `request`,
// unused here).
#ifndef FLOWC_BACKENDS_AIRFLOW_POD_KWARGS_H_
#define FLOWC_BACKENDS_AIRFLOW_POD_KWARGS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "backends/airflow/python.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::airflow {

// A JSON value as a Python literal.
PyExpr JsonToPython(const nlohmann::json& value);

// `Param(default, type=...)` for a DAG param.
PyExpr ParamExpr(const ir::Param& param);

// A string Airflow renders with Jinja before use, and one it does not
// (KubernetesPodOperator.template_fields and its nested fields decide which).
PyExpr Rendered(std::string_view text);
PyExpr Raw(std::string_view text);

// Appends to `kw` the KubernetesPodOperator keyword arguments of `pod`, in
// ir::Pod's order. `cmds` is the command, already translated (absent for a
// mapped task, which gets it from expand()).
// `admission` labels follow the pod's own: a plain step's queue labels (ir::Queue), for the
// pod Kueue admits itself.
void AppendPodKwargs(const ir::Pod& pod, std::optional<PyExpr> cmds, PyExpr::Kwargs& kw,
                     const ir::KeyValues& admission = {});

// A queued step's startup_timeout_seconds: its pod may wait in its queue, Pending behind
// Kueue's scheduling gate, for as long as @timeout allows (a year without one), where the
// operator's default would fail it after 120 s.
void AppendQueueKwargs(const ir::Step& step, PyExpr::Kwargs& kw);

// How many keyword arguments a KubernetesPodOperator gets at most: its task_id
// and name, AppendPodKwargs's 19, AppendControlKwargs's 3 and AppendQueueKwargs's 1. Only room
// reserved ahead: a count too small costs a reallocation, not a wrong DAG.
inline constexpr size_t kMaxPodOperatorKwargs = 25;

// Whether AppendControlKwargs writes a datetime.timedelta.
bool NeedsDatetime(const ir::Step& step);

// retries, retry_delay and (unless `with_timeout` is false) execution_timeout.
void AppendControlKwargs(const ir::Step& step, PyExpr::Kwargs& kw, bool with_timeout = true);

}  // namespace flowc::backends::airflow

#endif  // FLOWC_BACKENDS_AIRFLOW_POD_KWARGS_H_
