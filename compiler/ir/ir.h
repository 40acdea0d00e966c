// The IR: a flow with every step lowered to one complete pod and one control
// block. This is the only thing a backend sees (DESIGN.md, "The one
// invariant").
//
// Everything that decides where and how a pod runs is a field of ir::Pod,
// computed once by LowerToIr (graph_to_ir.cc). Backends render these fields in
// order and never add, drop or reorder one. Field names follow the Kubernetes
// API so that renderers and read-back tests map them one to one. Quantities
// are already strings in Kubernetes syntax ("500m", "4096M", "64Mi").
#ifndef FLOWC_IR_IR_H_
#define FLOWC_IR_IR_H_

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "compiler/diag/source.h"
#include "compiler/graph/param_type.h"
#include "compiler/graph/templating.h"
#include "compiler/support/shared.h"

namespace flowc::ir {

using diag::SourceRange;
using graph::Segment;
using graph::Text;

// Ordered string pairs: labels, annotations, nodeSelector, resource lists.
using KeyValues = std::vector<std::pair<std::string, std::string>>;

struct EnvVar {
  std::string name;
  // Exactly one of these: a literal value, or a downward-API field path
  // (`metadata.annotations['batch.kubernetes.io/job-completion-index']`).
  std::string value;
  std::string field_path;

  auto tie() const { return std::tie(name, value, field_path); }
  bool operator==(const EnvVar& o) const { return tie() == o.tie(); }
};

struct Toleration {
  std::string key;
  std::string op;  // "Exists" or "Equal"; Kubernetes' `operator`
  std::string value;
  std::string effect;  // "" means every effect
  std::optional<int64_t> toleration_seconds;

  auto tie() const { return std::tie(key, op, value, effect, toleration_seconds); }
  bool operator==(const Toleration& o) const { return tie() == o.tie(); }
};

// An item of a ConfigMap volume (Kubernetes' KeyToPath). `mode` is an
// int32 in the API (JSON and YAML write it in decimal: 0755 is 493); 0 for
// none, which leaves the file at the volume's defaultMode, 0644.
struct KeyToPath {
  std::string key;
  std::string path;
  int32_t mode = 0;

  auto tie() const { return std::tie(key, path, mode); }
  bool operator==(const KeyToPath& o) const { return tie() == o.tie(); }
  bool operator<(const KeyToPath& o) const { return tie() < o.tie(); }
};

// The mode of a shipped file that its owner may execute on disk.
inline constexpr int32_t kExecutableMode = 0755;

struct Volume {
  enum class Kind { kMemory, kClaim, kConfigMap };
  std::string name;
  Kind kind;
  std::string size_limit;  // kMemory: emptyDir {medium: Memory, sizeLimit}
  std::string claim_name;  // kClaim: persistentVolumeClaim {claimName}
  // kConfigMap: configMap {name, items: [{key, path, mode}]}; `claim_name`
  // holds the ConfigMap's name, `items` maps each key to its relative path.
  std::vector<KeyToPath> items{};

  auto tie() const { return std::tie(name, kind, size_limit, claim_name, items); }
  bool operator==(const Volume& o) const { return tie() == o.tie(); }
};

struct VolumeMount {
  std::string name;
  std::string mount_path;
  bool read_only = false;

  auto tie() const { return std::tie(name, mount_path, read_only); }
  bool operator==(const VolumeMount& o) const { return tie() == o.tie(); }
};

// A pod-level DRA claim (`spec.resourceClaims[]`), made from a
// ResourceClaimTemplate for each pod.
struct PodResourceClaim {
  std::string name;  // what the container's resources.claims[] names
  std::string template_name;

  auto tie() const { return std::tie(name, template_name); }
  bool operator==(const PodResourceClaim& o) const { return tie() == o.tie(); }
};

// The container's securityContext; unset fields are not emitted.
struct SecurityContext {
  std::optional<bool> privileged;
  std::optional<bool> allow_privilege_escalation;
  std::optional<int64_t> run_as_user;
  std::optional<int64_t> run_as_group;
  std::optional<bool> run_as_non_root;
};

struct Resources {
  KeyValues requests;  // cpu, memory, ephemeral-storage
  KeyValues limits;    // (Guaranteed: the same three), then accelerators
  std::vector<std::string> claims;  // names of the pod's resourceClaims it uses

  auto tie() const { return std::tie(requests, limits, claims); }
  bool operator==(const Resources& o) const { return tie() == o.tie(); }
};

// One step's pod, complete. Empty strings and lists mean "not set": a
// renderer omits them.
//
// A pod's strings and lists are Shared (compiler/support/shared.h) and
// interned (by the graph as it resolves decorators, by the lowering for the
// lists it builds), so the pods of a flow hold one copy of each distinct list
// (100,000 pods with the same labels, tolerations and resources). They read
// as the const values they hold; only the command is the pod's own.
struct Pod {
  // Pod metadata.
  Shared<std::string> namespace_;
  Shared<KeyValues> labels;
  Shared<KeyValues> annotations;

  // The one container. Named "main", but "node" in a @trainjob step: the
  // container Kubeflow Trainer gives the TrainJob's image, command, env and
  // resources, and the torch policy its env and port, is the trainer job's
  // container named `node` (kubeflow/trainer pkg/constants Node; plugins/
  // jobset/builder.go Trainer, plugins/torch/torch.go EnforceMLPolicy).
  // Always one of those two literals, so a view: a string would make Step
  // outgrow the block the lowering reuses (graph_to_ir.cc, LowerToIr).
  std::string_view container_name = "main";
  Shared<std::string> image;
  std::vector<Text> command;  // argv; `run "..."` is ["/bin/sh", "-c", "..."]
  Shared<std::vector<EnvVar>> env;  // flowc's FLOWC_* (@parallel), @environment vars in order, TMPDIR
  Shared<std::vector<std::string>> env_from_secrets;  // envFrom secretRef names, in order
  Shared<Resources> resources;
  Shared<std::vector<VolumeMount>> volume_mounts;
  Shared<std::string> image_pull_policy;
  Boxed<SecurityContext> security_context;
  std::optional<int64_t> port;  // containerPort
  Shared<std::string> working_dir;

  // Pod spec.
  Shared<std::string> service_account_name;
  Shared<KeyValues> node_selector;
  Shared<std::vector<Toleration>> tolerations;
  Shared<std::vector<Volume>> volumes;
  Shared<std::vector<std::string>> image_pull_secrets;
  Shared<std::vector<PodResourceClaim>> resource_claims;
};

// Whether an argument of the pod's command holds a segment of `kind`.
inline bool CommandRefers(const Pod& pod, Segment::Kind kind) {
  for (const Text& arg : pod.command) {
    if (arg.refers(kind)) return true;
  }
  return false;
}

// --- Objects beside the pods (DESIGN.md) -----------------------------------
// Kubernetes objects some pods need before they start. Their whole content is
// computed in the lowering, like the pods; backends/k8s/objects.* is the only
// writer, and a backend only decides how to deliver them.

// Opaque driver configuration of a DRA request (`config[].opaque`).
struct OpaqueDeviceConfig {
  std::string driver;       // neuron.aws.com
  std::string api_version;  // parameters.apiVersion
  std::string kind;         // parameters.kind: NeuronConfig, UltraServerConfig
  std::vector<std::pair<std::string, int64_t>> fields;  // logicalNeuronCore: 1
};

// A resource.k8s.io/v1 ResourceClaimTemplate with one device request.
struct ResourceClaimTemplate {
  std::string request_name;     // devices.requests[0].name
  std::string device_class;     // exactly.deviceClassName
  std::string allocation_mode;  // "ExactCount" or "All"
  int64_t count = 0;            // ExactCount only
  std::vector<std::string> selectors;  // CEL expressions, in order
  std::string match_attribute;  // a constraint over the request; "" for none
  std::vector<OpaqueDeviceConfig> configs;
};

// One file of a ConfigMap: `key` is valid for Kubernetes, `path` is where
// it lands below the mount.
struct ConfigMapFile {
  std::string key;
  std::string path;
  std::string content;  // the file's bytes
  bool binary = false;  // binaryData (base64) instead of data
  // kExecutableMode for a file its owner may execute on disk, else 0: the
  // mode of the file's item in every volume that mounts the ConfigMap.
  int32_t mode = 0;
};

// An immutable v1 ConfigMap.
struct ConfigMap {
  std::vector<ConfigMapFile> files;  // sorted by path
};

// A trainer.kubeflow.org/v1alpha1 TrainingRuntime for one @trainjob step
// (compiler/ir/trainjob.h): a torch policy of `num_nodes` nodes and a JobSet
// template whose one replicated job, the trainer's, runs `pod`.
struct TrainingRuntime {
  int64_t num_nodes = 1;
  std::string exclusive_topology;  // Parallel::exclusive_topology
  // The step's pod without its command: a command may hold a run's values
  // (params, the foreach element, the run id), so the TrainJob of each run
  // carries it (`spec.trainer.command`) and the runtime stays one object.
  Pod pod;
};

// The labels of every object beside the pods of the flow whose Kubernetes
// name is `flow_k8s_name`: app.kubernetes.io/managed-by (Kubernetes'
// recommended label for the tool that manages an object) and flowc/flow.
inline constexpr const char* kManagedByLabel = "app.kubernetes.io/managed-by";
inline constexpr const char* kFlowLabel = "flowc/flow";
inline KeyValues ObjectLabels(const std::string& flow_k8s_name) {
  return {{kManagedByLabel, "flowc"}, {kFlowLabel, flow_k8s_name}};
}

struct Object {
  std::string name;
  std::string namespace_;
  SourceRange range;  // what asked for it first
  std::variant<ResourceClaimTemplate, ConfigMap, TrainingRuntime> spec;
  // metadata.labels: who made the object, for a clean-up to select
  // (ObjectLabels). Not content: they do not enter the name's hash.
  Shared<KeyValues> labels{};

  const char* kind() const {
    if (std::holds_alternative<ResourceClaimTemplate>(spec)) return "ResourceClaimTemplate";
    if (std::holds_alternative<TrainingRuntime>(spec)) return "TrainingRuntime";
    return "ConfigMap";
  }
};

struct Retry {
  int64_t times = 0;
  int64_t minutes_between_retries = 0;
};

// `@parallel(nodes=N)`: the step runs as a JobSet of N indexed pods.
struct Parallel {
  int64_t nodes = 1;
  // A node label whose value every pod of the gang shares, one gang per
  // value (JobSet's exclusive placement); "" for none.
  std::string exclusive_topology{};
};

// `@trainjob`: the gang runs as a Kubeflow Trainer TrainJob that references
// `runtime_kind`/`runtime_name`: the TrainingRuntime flowc emits for the step
// (an object beside the pods), or the cluster's ClusterTrainingRuntime
// (`runtime=`), which the TrainJob then gives the pod through `trainer` and
// `runtimePatches`.
struct TrainJob {
  std::string runtime_kind;  // "TrainingRuntime" or "ClusterTrainingRuntime"
  std::string runtime_name;
  std::optional<int64_t> proc_per_node;  // trainer.numProcPerNode
  bool emitted_runtime() const { return runtime_kind == "TrainingRuntime"; }
};

// `@queue`: the Kueue LocalQueue and WorkloadPriorityClass of the object Kueue admits for a
// step, and the labels that say so. A renderer writes `labels` on that object and on no
// other: a plain step's pod, a @parallel gang's JobSet, a @trainjob step's TrainJob; on the
// jobset target the flow's one JobSet. Never on the pods a JobSet or TrainJob owns, which
// Kueue would then admit a second time.
struct Queue {
  std::string name;
  std::string priority;  // "" for none
  SourceRange range;     // the step's own @queue, else the flow's
  KeyValues labels;      // kueue.x-k8s.io/queue-name, then kueue.x-k8s.io/priority-class
};

struct Param {
  using Type = graph::ParamType;
  std::string name;
  Type type = Type::kStr;
  // The default as the flow wrote it, JSON-encoded ("3", "\"a\"",
  // "[\"a\",\"b\"]"); nullopt for a required param.
  std::optional<std::string> default_json;
  SourceRange range;
};

struct Schedule {
  std::string cron;      // always five fields; hourly/daily/weekly expanded
  std::string timezone;  // IANA name, or ""
  SourceRange range;
};

struct Foreach {
  // Exactly one: the list param iterated over, or a literal list whose
  // elements are rendered as strings (JSON for non-strings). Elements are
  // values, like params: a target escapes them for kubelet where it
  // substitutes them (every `$` doubled), not here.
  std::string param;
  std::vector<std::string> items;
  size_t body = 0;  // index of the first step of the body
  size_t join = 0;  // index of the step that closes the foreach
};

struct Step {
  std::string name;      // as written
  std::string k8s_name;  // lowercase, '_' -> '-': a DNS-1123 label
  SourceRange range;     // the step's name in the source

  Pod pod;
  std::optional<Retry> retry;
  std::optional<int64_t> timeout_seconds;
  // What few steps have is boxed (compiler/support/shared.h): a pointer each.
  Boxed<Parallel> parallel;
  Boxed<TrainJob> trainjob;  // only with `parallel`
  Boxed<Queue> queue;        // @queue

  // The graph. Indexes into Flow::steps.
  std::vector<size_t> next;          // successors as written
  std::vector<size_t> predecessors;  // in Flow::steps order
  Boxed<Foreach> foreach;            // set when this step fans out
  std::optional<size_t> join;        // a branch's closing step
  // The foreach steps whose body holds this step, outermost first.
  std::vector<size_t> enclosing_foreach;
  // The objects (indexes into Flow::objects) this step's pods need to exist
  // before they start, in Flow::objects order.
  std::vector<size_t> objects;

  bool is_branch() const { return next.size() > 1; }
};

struct Flow {
  std::string name;
  std::string k8s_name;
  std::string source_path;
  SourceRange range;
  std::vector<Param> params;
  std::optional<Schedule> schedule;
  // The flow's own @queue (its name may be "" when every step names one): what the jobset
  // target's one JobSet carries, every step's queue being the same.
  std::optional<Queue> queue;
  // Every step, in topological order (ties kept in declaration order): a
  // step comes after all its predecessors. steps[0] is `start`, the last is
  // `end`. A deque, each step (448 bytes) allocated on its own: the lowering
  // fills the blocks the graph's step configurations free as it goes
  // (graph_to_ir.cc), where one vector of 100,000 steps would be 45 MB more,
  // mapped anew (bench/RESULTS.md).
  std::deque<Step> steps;
  // Objects beside the pods, in the order the steps first need them; each
  // distinct object once.
  std::vector<Object> objects;
};

// Environment variables flowc itself sets on a @parallel step's pods.
inline constexpr const char* kEnvNumNodes = "FLOWC_NUM_NODES";
inline constexpr const char* kEnvNodeIndex = "FLOWC_NODE_INDEX";
inline constexpr const char* kEnvMainAddr = "FLOWC_MAIN_ADDR";
inline constexpr const char* kEnvJobSetName = "FLOWC_JOBSET_NAME";

// The Neuron toleration every step with Neuron devices carries.
inline constexpr const char* kNeuronResource = "aws.amazon.com/neuron";

}  // namespace flowc::ir

#endif  // FLOWC_IR_IR_H_
