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
              "CPU cores the container requests (decimals allowed: 0.5 is 500m)",
              "the container's `resources.requests.cpu` (and its limit with `qos=\"Guaranteed\"`)"),
          Doc({"memory", ArgType::kSize, 1, kMaxMegabytes, "4096"},
              "memory the container requests: MB as an integer, or a quantity such as \"16Gi\"",
              "the container's `resources.requests.memory`"),
          Doc({"disk", ArgType::kSize, 1, kMaxMegabytes, "10240"},
              "ephemeral storage the container requests: MB as an integer, or a quantity",
              "the container's `resources.requests.ephemeral-storage`"),
          Doc({"gpu", ArgType::kInt, 1, kMaxCount},
              "GPUs as a limit (nvidia.com/gpu or amd.com/gpu, see gpu_vendor); excludes "
              "trainium and inferentia",
              "the container's `resources.limits` of `nvidia.com/gpu` or `amd.com/gpu`"),
          Doc({"gpu_vendor", ArgType::kEnum, 0, 0, "\"nvidia\"", "nvidia|amd"},
              "whose GPUs `gpu` asks for: the resource nvidia.com/gpu or amd.com/gpu",
              "the resource name of the GPU limit"),
          Doc({"trainium", ArgType::kInt, 1, kMaxCount},
              "AWS Neuron devices through the device plugin (aws.amazon.com/neuron), with the "
              "Neuron toleration",
              "the container's `resources.limits` of `aws.amazon.com/neuron`, and the pod's "
              "toleration of `aws.amazon.com/neuron`"),
          Doc({"inferentia", ArgType::kInt, 1, kMaxCount},
              "an alias of trainium: Neuron devices through the device plugin",
              "the same as `trainium`"),
          Doc({"efa", ArgType::kInt, 1, kMaxCount},
              "EFA network interfaces as a limit (vpc.amazonaws.com/efa)",
              "the container's `resources.limits` of `vpc.amazonaws.com/efa`"),
          Doc({"image", ArgType::kString, 0, 0, "\"python:3.12-slim\""},
              "the container image",
              "the container's `image`"),
          Doc({"image_pull_policy", ArgType::kEnum, 0, 0, {}, "Always|IfNotPresent|Never"},
              "the container's imagePullPolicy",
              "the container's `imagePullPolicy`"),
          Doc({"image_pull_secrets", ArgType::kStringList, 0, 0, {}, {}, Rule::kSubdomain},
              "names of Secrets the kubelet pulls the image with (imagePullSecrets)",
              "the pod's `imagePullSecrets`"),
          Doc({"namespace", ArgType::kString, 0, 0, {}, {}, Rule::kLabel},
              "the Kubernetes namespace the step's pods and objects run in",
              "the `metadata.namespace` of the step's pod and of the objects it needs"),
          Doc({"service_account", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain},
              "the pod's serviceAccountName",
              "the pod's `serviceAccountName`"),
          Doc({"secrets", ArgType::kStringList, 0, 0, {}, {}, Rule::kSubdomain},
              "Secrets whose keys all become environment variables (envFrom secretRef)",
              "the container's `envFrom` `secretRef`s"),
          Doc({"node_selector", ArgType::kNodeSelector, 0, 0, {}, {}, Rule::kLabels},
              "the pod's nodeSelector: a map, or a string \"k=v,k2=v2\"",
              "the pod's `nodeSelector`"),
          Doc({"tolerations", ArgType::kTolerations},
              "the pod's tolerations, in order: maps of key, operator, value, effect, "
              "tolerationSeconds",
              "the pod's `tolerations`"),
          Doc({"labels", ArgType::kStringMap, 0, 0, {}, {}, Rule::kLabels},
              "labels of the pod",
              "the pod's `metadata.labels`"),
          Doc({"annotations", ArgType::kStringMap, 0, 0, {}, {}, Rule::kAnnotations},
              "annotations of the pod",
              "the pod's `metadata.annotations`"),
          Doc({"use_tmpfs", ArgType::kBool, 0, 0, "false"},
              "mounts a memory-backed emptyDir at tmpfs_path",
              "an `emptyDir` volume with `medium: Memory`, mounted at `tmpfs_path`"),
          Doc({"tmpfs_size", ArgType::kInt, 1, kMaxMegabytes},
              "the tmpfs's sizeLimit in MiB",
              "the tmpfs volume's `sizeLimit`, in `Mi`"),
          Doc({"tmpfs_path", ArgType::kString, 0, 0, "\"/tmp\"", {}, Rule::kAbsolutePath},
              "where the tmpfs is mounted",
              "the tmpfs volume's `mountPath`"),
          Doc({"tmpfs_tempdir", ArgType::kBool, 0, 0, "true"},
              "sets TMPDIR to tmpfs_path",
              "the container's environment variable `TMPDIR`"),
          Doc({"persistent_volume_claims", ArgType::kStringMap, 0, 0, {}, {}, Rule::kAbsolutePath},
              "PersistentVolumeClaims to mount: claim name -> mount path",
              "a `persistentVolumeClaim` volume per claim, mounted at its path"),
          Doc({"shared_memory", ArgType::kInt, 1, kMaxMegabytes},
              "a memory-backed /dev/shm of this many MiB",
              "an `emptyDir` volume with `medium: Memory` mounted at `/dev/shm`"),
          Doc({"port", ArgType::kInt, 1, 65535}, "the container's containerPort",
              "the container's `ports` (`containerPort`)"),
          Doc({"qos", ArgType::kEnum, 0, 0, "\"Burstable\"", "Burstable|Guaranteed"},
              "Guaranteed also sets the requests as limits",
              "with `Guaranteed`, the container's `resources.limits` equal to its requests"),
          Doc({"security_context", ArgType::kSecurityContext},
              "the container's securityContext: privileged, allow_privilege_escalation, "
              "run_as_user, run_as_group, run_as_non_root",
              "the container's `securityContext`"),
      }, "where and how the step's pod runs on Kubernetes: image, resources, accelerators, "
         "scheduling and metadata; on the flow, the default of every step",
         R"flow(@kubernetes(image="python:3.12-slim", namespace="ml")
flow example {
  step start { run "python prep.py" next train }

  @kubernetes(cpu=8, memory="32Gi", gpu=1, node_selector={"pool": "gpu"})
  step train { run "python train.py" next end }

  step end { run "echo done" }
}
)flow",
         "every argument is a field of the step's pod, rendered the same on every target: in "
         "the pod of an Argo template, of a JobSet's replicated job, and in the "
         "KubernetesPodOperator of an Airflow task."},
      {"resources", kOnStep | kOnFlow, {
          Doc({"cpu", ArgType::kNumber, 0.001, kMaxCpu}, "CPU cores; the larger of this and "
              "@kubernetes(cpu) wins",
              "the container's `resources.requests.cpu`"),
          Doc({"memory", ArgType::kSize, 1, kMaxMegabytes},
              "memory in MB or a quantity; the larger of this and @kubernetes(memory) wins",
              "the container's `resources.requests.memory`"),
          Doc({"disk", ArgType::kSize, 1, kMaxMegabytes},
              "ephemeral storage in MB or a quantity; the larger of this and @kubernetes(disk) "
              "wins",
              "the container's `resources.requests.ephemeral-storage`"),
          Doc({"gpu", ArgType::kInt, 1, kMaxCount},
              "GPUs; the larger of this and @kubernetes(gpu) wins",
              "the container's GPU limit"),
          Doc({"shared_memory", ArgType::kInt, 1, kMaxMegabytes},
              "/dev/shm in MiB; the larger of this and @kubernetes(shared_memory) wins",
              "the size of the `/dev/shm` volume"),
      }, "resource requests combined with @kubernetes by taking the larger value of each",
         R"flow(flow example {
  @resources(cpu=4, memory=16384)
  step start { run "python prep.py" next end }

  step end { run "echo done" }
}
)flow",
         "the container's resource requests, the same on every target (see `@kubernetes`)."},
      {"neuron", kOnStep | kOnFlow, {
          Doc({"devices", ArgType::kInt, 1, 16, {}, {}, Rule::kNone,
               "a node has at most 16 Neuron devices (trn2.48xlarge); for more, run the step as "
               "@parallel(nodes=N)"},
              "exactly this many Neuron devices (allocationMode: ExactCount)",
              "the claim's `exactly.count`, with `allocationMode: ExactCount`"),
          Doc({"all", ArgType::kBool},
              "every Neuron device of the node (allocationMode: All); excludes devices",
              "the claim's `allocationMode: All`"),
          Doc({"ultraserver", ArgType::kInt, 1, 4},
              "one neuron_node device in UltraServer mode 1, 2 or 4; above 1 needs "
              "@parallel(nodes=N) of the same N",
              "a request for one `neuron_node` device, with an `UltraServerConfig` of that "
              "`ultraserverMode`"),
          Doc({"template", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain,
               "name the ResourceClaimTemplate as it is in the cluster: lowercase letters, "
               "digits, '-' and '.'"},
              "an existing ResourceClaimTemplate, by name; excludes every other argument",
              "the container's claim on that ResourceClaimTemplate; flowc writes none"),
          Doc({"connected", ArgType::kBool},
              "the devices form one connected set (devices must be 1, 4, 8 or 16)",
              "a `matchAttribute` constraint on the devices' group "
              "(`resource.aws.com/devicegroupN_id`)"),
          Doc({"instance_type", ArgType::kString},
              "only devices of nodes of this EC2 instance type (a CEL selector)",
              "a CEL selector on the devices' `instanceType` attribute"),
          Doc({"driver_version", ArgType::kString},
              "only devices whose Neuron driver has this version (a CEL selector)",
              "a CEL selector on the devices' `neuronDriverVersion` attribute"),
          Doc({"lnc", ArgType::kInt, 1, 2, {}, {}, Rule::kNone,
               "write lnc=1 for one physical NeuronCore per logical core, or lnc=2 (trn2's "
               "default) for two"},
              "the logical NeuronCore size (NeuronConfig logicalNeuronCore)",
              "the claim's opaque `NeuronConfig` parameters (`logicalNeuronCore`)"),
      }, "Neuron devices through Dynamic Resource Allocation: a ResourceClaim from the AWS "
         "Neuron DRA driver instead of the device plugin",
         R"flow(flow example {
  @neuron(devices=4, connected=true)
  step start { run "python train.py" next end }

  step end { run "echo done" }
}
)flow",
         "a ResourceClaimTemplate (`resource.k8s.io/v1`) beside the pods and a claim of the "
         "container on it. Argo 4.1 names the claim in the template's `resourceClaims`, Argo "
         "3.7 and 4.0 in its `podSpecPatch` (`--argo-version`); Airflow's DAG creates the "
         "template before the tasks that need it; JobSet writes it in its YAML stream."},
      {"parallel", kOnStep, {
          Doc({"nodes", ArgType::kInt, 1, kMaxCount}, "how many pods the gang has",
              "the number of pods of the gang (a Job's `parallelism` and `completions`, a "
              "TrainJob's `numNodes`) and `FLOWC_NUM_NODES`"),
      }, "runs the step as a gang of pods (a JobSet), with FLOWC_NUM_NODES, FLOWC_NODE_INDEX "
         "and FLOWC_MAIN_ADDR in their environment",
         R"flow(flow example {
  step start { run "python prep.py" next train }

  @parallel(nodes=4)
  step train { run "torchrun --nnodes {{num_nodes}} train.py" next end }

  step end { run "echo done" }
}
)flow",
         "a gang of pods in a JobSet. Argo and Airflow create the JobSet and wait for it to "
         "finish; the JobSet target makes the step a replicated job of the flow's JobSet whose "
         "Job runs N pods (`parallelism` and `completions`)."},
      {"trainjob", kOnStep, {
          Doc({"runtime", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain,
               "name the ClusterTrainingRuntime as it is in the cluster: lowercase letters, "
               "digits, '-' and '.'"},
              "an existing ClusterTrainingRuntime; without it flowc emits a TrainingRuntime "
              "holding the step's pod",
              "the TrainJob's `runtimeRef` to that ClusterTrainingRuntime"),
          Doc({"proc_per_node", ArgType::kInt, 1, kMaxCount},
              "processes per node for the torch policy (numProcPerNode)",
              "the TrainJob's `numProcPerNode`"),
      }, "runs a @parallel step as a Kubeflow Trainer TrainJob instead of a bare JobSet",
         R"flow(flow example {
  step start { run "python prep.py" next train }

  @parallel(nodes=2)
  @trainjob(proc_per_node=8)
  step train { run "torchrun train.py" next end }

  step end { run "echo done" }
}
)flow",
         "a Kubeflow Trainer TrainJob (`trainer.kubeflow.org/v1alpha1`), with a TrainingRuntime "
         "of flowc's unless `runtime` names one. Argo and Airflow create it and wait for it; "
         "the JobSet target cannot hold one (E050)."},
      {"queue", kOnStep | kOnFlow, {
          Doc({"name", ArgType::kString, 0, 0, {}, {}, Rule::kLabel,
               "name the LocalQueue as it is in the step's namespace: at most 63 lowercase "
               "letters, digits and '-'"},
              "the Kueue LocalQueue in the step's namespace (label kueue.x-k8s.io/queue-name); "
              "a DNS-1123 label",
              "the label `kueue.x-k8s.io/queue-name`"),
          Doc({"priority", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain,
               "name the WorkloadPriorityClass as it is in the cluster: lowercase letters, "
               "digits, '-' and '.'"},
              "a Kueue WorkloadPriorityClass (label kueue.x-k8s.io/priority-class)",
              "the label `kueue.x-k8s.io/priority-class`"),
      }, "admission through Kueue: the queue labels go on the object Kueue admits (a plain "
         "step's pod, a gang's JobSet, a TrainJob); on the flow, the default of every step",
         R"flow(@queue(name="ml-queue", priority="batch")
flow example {
  step start { run "python prep.py" next end }

  step end { run "echo done" }
}
)flow",
         "labels on what Kueue admits: a plain step's pod, a gang's JobSet, a TrainJob. The "
         "JobSet target runs the whole flow as one Kueue workload, so there only a `@queue` on "
         "the flow is allowed (E050)."},
      {"code", kOnStep | kOnFlow, {
          Doc({"files", ArgType::kStringList},
              "paths or globs relative to the .flow file's folder, shipped in an immutable "
              "ConfigMap",
              "the keys of the ConfigMap, mounted as files of the same relative paths"),
          Doc({"path", ArgType::kString, 0, 0, "\"/workspace\"", {}, Rule::kAbsolutePath},
              "where the files appear in the container; its working directory",
              "the ConfigMap volume's `mountPath` and the container's `workingDir`"),
      }, "ships local files to the pods in a ConfigMap named by a hash of their content",
         R"flow(# beside the flow: train.py, 100 bytes
@code(files=["train.py"])
flow example {
  step start { run "python train.py" next end }

  step end { run "echo done" }
}
)flow",
         "an immutable ConfigMap named by a hash of the files' content, mounted in the pod, the "
         "same on every target: Argo and JobSet write it in their YAML stream, Airflow's DAG "
         "creates it before the tasks that need it."},
      {"retry", kOnStep | kOnFlow, {
          Doc({"times", ArgType::kInt, 0, 10, "3"}, "how many times a failed step is retried",
              "Argo: `retryStrategy.limit`; Airflow: the task's `retries`; JobSet: the JobSet's "
              "`failurePolicy.maxRestarts`"),
          Doc({"minutes_between_retries", ArgType::kInt, 0, kNoLimit, "2"},
              "the wait before each retry",
              "Argo: `retryStrategy.backoff.duration`; Airflow: the task's `retry_delay`; "
              "JobSet: nothing, it restarts at once (W004)"),
      }, "retries a failed step",
         R"flow(flow example {
  @retry(times=2, minutes_between_retries=5)
  step start { run "python flaky.py" next end }

  step end { run "echo done" }
}
)flow",
         "Argo: the template's `retryStrategy`; Airflow: the task's `retries` and "
         "`retry_delay`; JobSet: the JobSet's `failurePolicy.maxRestarts`, one restart budget "
         "for the flow, which restarts at once (W004)."},
      {"timeout", kOnStep | kOnFlow, {
          Doc({"seconds", ArgType::kInt, 0}, "seconds of the deadline (summed with the others)",
              "part of the deadline"),
          Doc({"minutes", ArgType::kInt, 0}, "minutes of the deadline (summed with the others)",
              "part of the deadline"),
          Doc({"hours", ArgType::kInt, 0}, "hours of the deadline (summed with the others)",
              "part of the deadline"),
      }, "a deadline for the step; the sum of its arguments must be above 0",
         R"flow(flow example {
  @timeout(hours=1, minutes=30)
  step start { run "python train.py" next end }

  step end { run "echo done" }
}
)flow",
         "Argo: the template's `activeDeadlineSeconds`; Airflow: the task's "
         "`execution_timeout`; JobSet: the job's `activeDeadlineSeconds`."},
      {"environment", kOnStep | kOnFlow, {
          Doc({"vars", ArgType::kStringMap, 0, 0, {}, {}, Rule::kEnvVars},
              "environment variables in written order; values may hold the gang references "
              "of a @parallel step",
              "the container's `env`, in written order"),
      }, "environment variables of the container",
         R"flow(flow example {
  @environment(vars={"LOG_LEVEL": "debug"})
  step start { run "python job.py" next end }

  step end { run "echo done" }
}
)flow",
         "the container's `env`, the same on every target."},
      {"secrets", kOnStep | kOnFlow, {
          Doc({"sources", ArgType::kStringList, 0, 0, {}, {}, Rule::kSubdomain},
              "Secrets whose keys all become environment variables",
              "the container's `envFrom` `secretRef`s"),
      }, "Secrets as environment variables; the same as @kubernetes(secrets=...)",
         R"flow(flow example {
  @secrets(sources=["s3-credentials"])
  step start { run "python upload.py" next end }

  step end { run "echo done" }
}
)flow",
         "the container's `envFrom`, the same on every target."},
      {"schedule", kOnFlow, {
          Doc({"cron", ArgType::kString}, "a five-field cron expression",
              "Argo: the CronWorkflow's `schedules`; Airflow: the DAG's `schedule`"),
          Doc({"hourly", ArgType::kBool}, "every hour (0 * * * *)",
              "the cron expression `0 * * * *`"),
          Doc({"daily", ArgType::kBool}, "every day at midnight (0 0 * * *)",
              "the cron expression `0 0 * * *`"),
          Doc({"weekly", ArgType::kBool}, "every Sunday at midnight (0 0 * * 0)",
              "the cron expression `0 0 * * 0`"),
          Doc({"timezone", ArgType::kString}, "the IANA time zone of the schedule",
              "Argo: the CronWorkflow's `timezone`; Airflow: the time zone of the DAG's "
              "`start_date`"),
      }, "runs the flow on a schedule (a CronWorkflow, a DAG schedule)",
         R"flow(@schedule(cron="0 3 * * *", timezone="Europe/Paris")
flow example {
  step start { run "python report.py" next end }

  step end { run "echo done" }
}
)flow",
         "Argo: a CronWorkflow instead of a WorkflowTemplate; Airflow: the DAG's `schedule`; "
         "the JobSet target has no schedule (E050)."},
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
