// JobSets (jobset.x-k8s.io/v1alpha2): the Kubernetes API multi-node steps run
// on. Built here once, for three users: the JobSet target (a whole flow as one
// JobSet), and the Argo and Airflow targets, which create one JobSet per
// `@parallel` step. The pods inside come from the one pod renderer.
#ifndef FLOWC_BACKENDS_K8S_JOBSET_H_
#define FLOWC_BACKENDS_K8S_JOBSET_H_

#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "backends/k8s/pod_yaml.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::k8s {

inline constexpr const char* kJobSetApiVersion = "jobset.x-k8s.io/v1alpha2";

// One replicated Job: N indexed pods of `step` (N = @parallel nodes, else 1),
// backoffLimit 0, @timeout as the Job's activeDeadlineSeconds, dependsOn each
// name in `depends_on` with status Complete. Emitted as one map into an open
// sequence (spec.replicatedJobs).
void EmitReplicatedJob(YAML::Emitter& out, const ir::Step& step,
                       const std::vector<std::string>& depends_on, const StringPolicy& strings);

// A whole JobSet document named `jobset_name` that runs `step` alone, as Argo
// and Airflow create it for a @parallel step. `jobset_name` may hold the
// target's templating (Argo: "{{workflow.name}}-train"). It has no
// failurePolicy: the engine that creates it retries the step, with the
// step's delay, so a JobSet restart would multiply the attempts.
void EmitStepJobSet(YAML::Emitter& out, const ir::Flow& flow, const ir::Step& step,
                    std::string_view jobset_name, const StringPolicy& strings);

// How a target names the JobSet that runs a step: at most `length`
// characters, holding `flow_uses` copies of the flow's Kubernetes name and
// `step_uses` of the step's; the rest is the target's own. `form` spells it
// for a note: "<flow>", "<flow>-<step>-<8 hex digits>".
struct JobSetName {
  size_t length = 0;
  size_t flow_uses = 0;
  size_t step_uses = 0;
  std::string_view form;
};

// Reports, at the step, a Job or pod name that would exceed Kubernetes' 63
// characters in a JobSet named `name`; the help says how short the flow's or
// the step's name must become, counting each copy of it in the pod's name.
bool CheckJobSetNames(const ir::Flow& flow, const ir::Step& step, const JobSetName& name,
                      diag::Reporter& report);

// The length of the longest pod name of `step` in a JobSet whose name has
// `jobset_name_length` characters: `<jobset>-<step>-0-<N-1>-<5 random>`.
size_t JobSetPodNameLength(size_t jobset_name_length, const ir::Step& step);

// `network: {enableDNSHostnames: true}` as a key/value pair into an open map
// (a JobSet's spec); the subdomain stays the JobSet's name, which the IR's
// FLOWC_MAIN_ADDR spells out.
void EmitJobSetNetwork(YAML::Emitter& out);

}  // namespace flowc::backends::k8s

#endif  // FLOWC_BACKENDS_K8S_JOBSET_H_
