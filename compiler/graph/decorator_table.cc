#include "compiler/graph/decorator_table.h"

#include <map>
#include <optional>
#include <string>
#include <stdexcept>

namespace flowc::graph::decorator_table {
namespace {

using ast::Value;
using Kind = ast::Value::Kind;

// Upper bounds that keep every derived value (millicores, bytes, MiB) far
// inside int64, and counts inside the int32 fields Kubernetes stores them in.
constexpr double kMaxCpu = 1e6;            // cores
constexpr double kMaxMegabytes = 1e12;     // an exabyte
constexpr double kMaxCount = 2147483647;   // int32: parallelism, completions

}  // namespace

const std::vector<DecoratorSpec>& Table() {
  static const std::vector<DecoratorSpec> table = {
      {"kubernetes", kOnStep | kOnFlow, {
          Doc({"cpu", ArgType::kNumber, 0.001, kMaxCpu, "1"},
              "CPU cores the container requests (decimals allowed: 0.5 is 500m)"),
          Doc({"memory", ArgType::kSize, 1, kMaxMegabytes, "4096"},
              "memory the container requests: MB as an integer, or a quantity such as \"16Gi\""),
          Doc({"disk", ArgType::kSize, 1, kMaxMegabytes, "10240"},
              "ephemeral storage the container requests: MB as an integer, or a quantity"),
          Doc({"gpu", ArgType::kInt, 1, kMaxCount},
              "GPUs as a limit (nvidia.com/gpu or amd.com/gpu, see gpu_vendor); excludes "
              "trainium and inferentia"),
          Doc({"gpu_vendor", ArgType::kEnum, 0, 0, "\"nvidia\"", "nvidia|amd"},
              "whose GPUs `gpu` asks for: the resource nvidia.com/gpu or amd.com/gpu"),
          Doc({"trainium", ArgType::kInt, 1, kMaxCount},
              "AWS Neuron devices through the device plugin (aws.amazon.com/neuron), with the "
              "Neuron toleration"),
          Doc({"inferentia", ArgType::kInt, 1, kMaxCount},
              "an alias of trainium: Neuron devices through the device plugin"),
          Doc({"efa", ArgType::kInt, 1, kMaxCount},
              "EFA network interfaces as a limit (vpc.amazonaws.com/efa)"),
          Doc({"image", ArgType::kString, 0, 0, "\"python:3.12-slim\""},
              "the container image"),
          Doc({"image_pull_policy", ArgType::kEnum, 0, 0, {}, "Always|IfNotPresent|Never"},
              "the container's imagePullPolicy"),
          Doc({"image_pull_secrets", ArgType::kStringList, 0, 0, {}, {}, Rule::kSubdomain},
              "names of Secrets the kubelet pulls the image with (imagePullSecrets)"),
          Doc({"namespace", ArgType::kString, 0, 0, {}, {}, Rule::kLabel},
              "the Kubernetes namespace the step's pods and objects run in"),
          Doc({"service_account", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain},
              "the pod's serviceAccountName"),
          Doc({"secrets", ArgType::kStringList, 0, 0, {}, {}, Rule::kSubdomain},
              "Secrets whose keys all become environment variables (envFrom secretRef)"),
          Doc({"node_selector", ArgType::kNodeSelector, 0, 0, {}, {}, Rule::kLabels},
              "the pod's nodeSelector: a map, or a string \"k=v,k2=v2\""),
          Doc({"tolerations", ArgType::kTolerations},
              "the pod's tolerations, in order: maps of key, operator, value, effect, "
              "tolerationSeconds"),
          Doc({"labels", ArgType::kStringMap, 0, 0, {}, {}, Rule::kLabels},
              "labels of the pod"),
          Doc({"annotations", ArgType::kStringMap, 0, 0, {}, {}, Rule::kAnnotations},
              "annotations of the pod"),
          Doc({"use_tmpfs", ArgType::kBool, 0, 0, "false"},
              "mounts a memory-backed emptyDir at tmpfs_path"),
          Doc({"tmpfs_size", ArgType::kInt, 1, kMaxMegabytes},
              "the tmpfs's sizeLimit in MiB"),
          Doc({"tmpfs_path", ArgType::kString, 0, 0, "\"/tmp\"", {}, Rule::kAbsolutePath},
              "where the tmpfs is mounted"),
          Doc({"tmpfs_tempdir", ArgType::kBool, 0, 0, "true"},
              "sets TMPDIR to tmpfs_path"),
          Doc({"persistent_volume_claims", ArgType::kStringMap, 0, 0, {}, {}, Rule::kAbsolutePath},
              "PersistentVolumeClaims to mount: claim name -> mount path"),
          Doc({"shared_memory", ArgType::kInt, 1, kMaxMegabytes},
              "a memory-backed /dev/shm of this many MiB"),
          Doc({"port", ArgType::kInt, 1, 65535}, "the container's containerPort"),
          Doc({"qos", ArgType::kEnum, 0, 0, "\"Burstable\"", "Burstable|Guaranteed"},
              "Guaranteed also sets the requests as limits"),
          Doc({"security_context", ArgType::kSecurityContext},
              "the container's securityContext: privileged, allow_privilege_escalation, "
              "run_as_user, run_as_group, run_as_non_root"),
      }, "where and how the step's pod runs on Kubernetes: image, resources, accelerators, "
         "scheduling and metadata; on the flow, the default of every step"},
      {"resources", kOnStep | kOnFlow, {
          Doc({"cpu", ArgType::kNumber, 0.001, kMaxCpu}, "CPU cores; the larger of this and "
              "@kubernetes(cpu) wins"),
          Doc({"memory", ArgType::kSize, 1, kMaxMegabytes},
              "memory in MB or a quantity; the larger of this and @kubernetes(memory) wins"),
          Doc({"disk", ArgType::kSize, 1, kMaxMegabytes},
              "ephemeral storage in MB or a quantity; the larger of this and @kubernetes(disk) "
              "wins"),
          Doc({"gpu", ArgType::kInt, 1, kMaxCount},
              "GPUs; the larger of this and @kubernetes(gpu) wins"),
          Doc({"shared_memory", ArgType::kInt, 1, kMaxMegabytes},
              "/dev/shm in MiB; the larger of this and @kubernetes(shared_memory) wins"),
      }, "resource requests combined with @kubernetes by taking the larger value of each"},
      {"neuron", kOnStep | kOnFlow, {
          Doc({"devices", ArgType::kInt, 1, 16, {}, {}, Rule::kNone,
               "a node has at most 16 Neuron devices (trn2.48xlarge); for more, run the step as "
               "@parallel(nodes=N)"},
              "exactly this many Neuron devices (allocationMode: ExactCount)"),
          Doc({"all", ArgType::kBool},
              "every Neuron device of the node (allocationMode: All); excludes devices"),
          Doc({"ultraserver", ArgType::kInt, 1, 4},
              "one neuron_node device in UltraServer mode 1, 2 or 4; above 1 needs "
              "@parallel(nodes=N) of the same N"),
          Doc({"template", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain,
               "name the ResourceClaimTemplate as it is in the cluster: lowercase letters, "
               "digits, '-' and '.'"},
              "an existing ResourceClaimTemplate, by name; excludes every other argument"),
          Doc({"connected", ArgType::kBool},
              "the devices form one connected set (devices must be 1, 4, 8 or 16)"),
          Doc({"instance_type", ArgType::kString},
              "only devices of nodes of this EC2 instance type (a CEL selector)"),
          Doc({"driver_version", ArgType::kString},
              "only devices whose Neuron driver has this version (a CEL selector)"),
          Doc({"lnc", ArgType::kInt, 1, 2, {}, {}, Rule::kNone,
               "write lnc=1 for one physical NeuronCore per logical core, or lnc=2 (trn2's "
               "default) for two"},
              "the logical NeuronCore size (NeuronConfig logicalNeuronCore)"),
      }, "Neuron devices through Dynamic Resource Allocation: a ResourceClaim from the AWS "
         "Neuron DRA driver instead of the device plugin"},
      {"parallel", kOnStep, {
          Doc({"nodes", ArgType::kInt, 1, kMaxCount}, "how many pods the gang has"),
      }, "runs the step as a gang of pods (a JobSet), with FLOWC_NUM_NODES, FLOWC_NODE_INDEX "
         "and FLOWC_MAIN_ADDR in their environment"},
      {"trainjob", kOnStep, {
          Doc({"runtime", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain,
               "name the ClusterTrainingRuntime as it is in the cluster: lowercase letters, "
               "digits, '-' and '.'"},
              "an existing ClusterTrainingRuntime; without it flowc emits a TrainingRuntime "
              "holding the step's pod"),
          Doc({"proc_per_node", ArgType::kInt, 1, kMaxCount},
              "processes per node for the torch policy (numProcPerNode)"),
      }, "runs a @parallel step as a Kubeflow Trainer TrainJob instead of a bare JobSet"},
      {"queue", kOnStep | kOnFlow, {
          Doc({"name", ArgType::kString, 0, 0, {}, {}, Rule::kLabel,
               "name the LocalQueue as it is in the step's namespace: at most 63 lowercase "
               "letters, digits and '-'"},
              "the Kueue LocalQueue in the step's namespace (label kueue.x-k8s.io/queue-name); "
              "a DNS-1123 label"),
          Doc({"priority", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain,
               "name the WorkloadPriorityClass as it is in the cluster: lowercase letters, "
               "digits, '-' and '.'"},
              "a Kueue WorkloadPriorityClass (label kueue.x-k8s.io/priority-class)"),
      }, "admission through Kueue: the queue labels go on the object Kueue admits (a plain "
         "step's pod, a gang's JobSet, a TrainJob); on the flow, the default of every step"},
      {"code", kOnStep | kOnFlow, {
          Doc({"files", ArgType::kStringList},
              "paths or globs relative to the .flow file's folder, shipped in an immutable "
              "ConfigMap"),
          Doc({"path", ArgType::kString, 0, 0, "\"/workspace\"", {}, Rule::kAbsolutePath},
              "where the files appear in the container; its working directory"),
      }, "ships local files to the pods in a ConfigMap named by a hash of their content"},
      {"retry", kOnStep | kOnFlow, {
          Doc({"times", ArgType::kInt, 0, 10, "3"}, "how many times a failed step is retried"),
          Doc({"minutes_between_retries", ArgType::kInt, 0, kNoLimit, "2"},
              "the wait before each retry"),
      }, "retries a failed step"},
      {"timeout", kOnStep | kOnFlow, {
          Doc({"seconds", ArgType::kInt, 0}, "seconds of the deadline (summed with the others)"),
          Doc({"minutes", ArgType::kInt, 0}, "minutes of the deadline (summed with the others)"),
          Doc({"hours", ArgType::kInt, 0}, "hours of the deadline (summed with the others)"),
      }, "a deadline for the step; the sum of its arguments must be above 0"},
      {"environment", kOnStep | kOnFlow, {
          Doc({"vars", ArgType::kStringMap, 0, 0, {}, {}, Rule::kEnvVars},
              "environment variables in written order; values may hold the gang references "
              "of a @parallel step"),
      }, "environment variables of the container"},
      {"secrets", kOnStep | kOnFlow, {
          Doc({"sources", ArgType::kStringList, 0, 0, {}, {}, Rule::kSubdomain},
              "Secrets whose keys all become environment variables"),
      }, "Secrets as environment variables; the same as @kubernetes(secrets=...)"},
      {"schedule", kOnFlow, {
          Doc({"cron", ArgType::kString}, "a five-field cron expression"),
          Doc({"hourly", ArgType::kBool}, "every hour (0 * * * *)"),
          Doc({"daily", ArgType::kBool}, "every day at midnight (0 0 * * *)"),
          Doc({"weekly", ArgType::kBool}, "every Sunday at midnight (0 0 * * 0)"),
          Doc({"timezone", ArgType::kString}, "the IANA time zone of the schedule"),
      }, "runs the flow on a schedule (a CronWorkflow, a DAG schedule)"},
  };
  return table;
}

const DecoratorSpec* FindDecorator(std::string_view name) {
  for (const DecoratorSpec& spec : Table()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

const ArgSpec* FindArg(const DecoratorSpec& spec, std::string_view name) {
  size_t position = ArgPosition(spec, name);
  return position == kNoArg ? nullptr : &spec.args[position];
}


namespace {

// A table default, as the parser would have produced it.
Value DefaultValue(std::string_view literal) {
  Value value;
  if (literal.front() == '"') {
    value.kind = Kind::kString;
    value.string = std::string(literal.substr(1, literal.size() - 2));
  } else if (literal == "true" || literal == "false") {
    value.kind = Kind::kBool;
    value.bool_value = literal == "true";
  } else {
    value.kind = Kind::kInt;
    value.int_value = std::stoll(std::string(literal));
  }
  return value;
}

}  // namespace

ArgIndex::ArgIndex(const DecoratorSpec& spec) : spec_(&spec), defaults_(spec.args.size()) {
  if (spec.args.size() >= kEmpty) throw std::logic_error("too many arguments to index");
  slots_.fill(kEmpty);
  for (size_t a = 0; a < spec.args.size(); ++a) {
    const ArgSpec& arg = spec.args[a];
    if (!arg.default_value.empty()) defaults_[a] = DefaultValue(arg.default_value);
    if (arg.name.empty() || Find(arg.name) != kNoArg) continue;  // the first of a name
    size_t slot = Hash(arg.name);
    while (slots_[slot] != kEmpty) slot = (slot + 1) & kMask;
    slots_[slot] = static_cast<uint8_t>(a);
  }
}

const ArgIndex& IndexOf(const DecoratorSpec& spec) {
  static const std::vector<ArgIndex> table = [] {
    std::vector<ArgIndex> out;
    for (const DecoratorSpec& s : Table()) out.emplace_back(s);
    return out;
  }();
  const std::vector<DecoratorSpec>& specs = Table();
  if (&spec >= specs.data() && &spec < specs.data() + specs.size()) {
    return table[static_cast<size_t>(&spec - specs.data())];
  }
  static std::map<const DecoratorSpec*, ArgIndex> others;  // a test's own specs
  return others.try_emplace(&spec, spec).first->second;
}

}  // namespace flowc::graph::decorator_table
