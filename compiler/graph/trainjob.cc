#include "compiler/graph/trainjob.h"

#include <fmt/format.h>

#include <string_view>

#include "compiler/graph/decorators.h"

namespace flowc::graph {
namespace {

using diag::Code;

constexpr const char* kDropRuntimeHelp =
    "drop 'runtime=' so that flowc emits a TrainingRuntime that carries the whole pod";

const ast::Decorator* FindDecorator(const std::vector<const ast::Decorator*>& list,
                                    std::string_view name) {
  for (const ast::Decorator* d : list) {
    if (d->name.name == name) return d;
  }
  return nullptr;
}

const ast::Argument* FindArgument(const ast::Decorator* decorator, std::string_view name) {
  if (decorator == nullptr) return nullptr;
  for (const ast::Argument& arg : decorator->arguments) {
    if (arg.name.name == name) return &arg;
  }
  return nullptr;
}

// Where a step's value of `decorator(argument=...)` is written: the step's
// own decorator, else the flow's (decorators.h: the step overrides the flow
// argument by argument).
const ast::Argument* Written(const std::vector<const ast::Decorator*>& flow,
                             const std::vector<const ast::Decorator*>& step,
                             std::string_view decorator, std::string_view argument) {
  if (const ast::Argument* arg = FindArgument(FindDecorator(step, decorator), argument)) return arg;
  return FindArgument(FindDecorator(flow, decorator), argument);
}

// The decorator itself, the step's or else the flow's.
const ast::Decorator* WrittenDecorator(const std::vector<const ast::Decorator*>& flow,
                                       const std::vector<const ast::Decorator*>& step,
                                       std::string_view name) {
  if (const ast::Decorator* d = FindDecorator(step, name)) return d;
  return FindDecorator(flow, name);
}

bool IsTorchReserved(std::string_view name) {
  for (std::string_view reserved : kTorchReservedEnv) {
    if (name == reserved) return true;
  }
  return false;
}

// A pod field the step has that a TrainJob cannot give a runtime it
// references, and where the step's decorators set it.
struct Uncarried {
  std::string field;     // "resource claims", as the message names it
  std::string reason;    // what Trainer v2.3 lacks, for the note
  diag::SourceRange at;  // what sets it
  std::string by;        // "'@neuron'", "'image_pull_policy'"
};

// Each field of the step's pod that Kubeflow Trainer v2.3 cannot put into a
// referenced runtime. What it can: `spec.trainer` holds image, command,
// args, env and resourcesPerNode (requests and limits); `runtimePatches`
// hold the pod template's labels and annotations, and of the pod spec
// serviceAccountName, volumes, initContainers, containers, imagePullSecrets,
// securityContext, nodeSelector, affinity, tolerations and schedulingGates,
// and of a container only env, volumeMounts and securityContext
// (kubeflow/trainer pkg/apis/trainer/v1alpha1/trainjob_types.go:
// PodSpecPatch, ContainerPatch; the v2.3.0 CRD in compiler/validate/schemas).
std::vector<Uncarried> UncarriedFields(const std::vector<const ast::Decorator*>& flow,
                                       const std::vector<const ast::Decorator*>& step,
                                       const StepConfig& c) {
  std::vector<Uncarried> out;
  const std::string container_patch =
      "a runtime patch sets only env, volumeMounts and securityContext of a container";
  if (c.neuron_dra) {
    const ast::Decorator* neuron = WrittenDecorator(flow, step, "neuron");
    out.push_back({"resource claims",
                   "a runtime patch of Kubeflow Trainer v2.3 has no resourceClaims (KEP-2782 "
                   "proposes them)",
                   neuron->range, "'@neuron'"});
  }
  if (!c.secrets.empty()) {
    const char* decorator = "kubernetes";
    const ast::Argument* arg = Written(flow, step, decorator, "secrets");
    if (arg == nullptr) arg = Written(flow, step, decorator = "secrets", "sources");
    out.push_back({"envFrom secrets",
                   "neither the TrainJob's trainer nor a runtime patch has envFrom",
                   arg->name.range, fmt::format("'{}' of '@{}'", arg->name.name, decorator)});
  }
  if (!c.image_pull_policy.empty()) {
    const ast::Argument* arg = Written(flow, step, "kubernetes", "image_pull_policy");
    out.push_back({"imagePullPolicy", container_patch, arg->name.range,
                   "'image_pull_policy' of '@kubernetes'"});
  }
  if (c.port) {
    const ast::Argument* arg = Written(flow, step, "kubernetes", "port");
    out.push_back({"container port", container_patch, arg->name.range, "'port' of '@kubernetes'"});
  }
  if (const ast::Decorator* code = WrittenDecorator(flow, step, "code")) {
    out.push_back({"working directory", container_patch, code->range, "'@code'"});
  }
  return out;
}

}  // namespace

std::optional<TrainJobConfig> ResolveTrainJob(const std::vector<const ast::Decorator*>& flow,
                                              const std::vector<const ast::Decorator*>& step,
                                              const StepConfig& config, diag::Reporter& report,
                                              bool* ok) {
  const ast::Decorator* decorator = FindDecorator(step, "trainjob");
  if (decorator == nullptr) return std::nullopt;
  TrainJobConfig t;
  t.range = decorator->range;
  const ast::Argument* runtime = FindArgument(decorator, "runtime");
  if (runtime != nullptr) t.runtime = runtime->value.string;
  if (const ast::Argument* p = FindArgument(decorator, "proc_per_node")) {
    t.proc_per_node = p->value.int_value;
  }
  bool good = true;

  if (!config.parallel_nodes) {
    report(Code::kTrainJob, decorator->range, "'@trainjob' needs '@parallel' on the same step")
        .AddNote("a TrainJob runs the step as a gang of pods, one per node")
        .SetHelp(
            "add @parallel(nodes=N) for a gang of N nodes, or remove '@trainjob' to run "
            "one pod");
    good = false;
  }

  // The step's env is its own @environment's vars, else the flow's.
  if (const ast::Argument* vars = Written(flow, step, "environment", "vars")) {
    for (const ast::MapEntry& entry : vars->value.entries) {
      if (!IsTorchReserved(entry.key)) continue;
      report(Code::kTrainJob, entry.key_range,
             fmt::format("'{}' is set by Kubeflow Trainer's torch policy in a '@trainjob' step",
                         entry.key))
          .AddNote(decorator->range, "'@trainjob' is written here")
          .SetHelp(
              "remove it: the Trainer sets PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK, "
              "PET_MASTER_ADDR and PET_MASTER_PORT, and '{{num_nodes}}', '{{node_index}}' "
              "and '{{main_addr}}' give the same values");
      good = false;
    }
  }

  if (runtime != nullptr) {
    for (const Uncarried& u : UncarriedFields(flow, step, config)) {
      report(Code::kTrainJob, runtime->value.range,
             fmt::format("a TrainJob cannot give the referenced runtime '{}' the pod's {}",
                         t.runtime, u.field))
          .AddNote(u.at, fmt::format("{} is written here", u.by))
          .AddNote(u.reason)
          .SetHelp(kDropRuntimeHelp);
      good = false;
    }
  }
  if (!good) {
    *ok = false;
    return std::nullopt;
  }
  return t;
}

}  // namespace flowc::graph
