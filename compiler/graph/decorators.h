// Decorators: the one table of their names, arguments, types, ranges and
// defaults (decorator_table.cc; written decorators are checked against it in
// decorator_args.cc), and what they resolve to for a step (decorators.cc).
//
// Flow-level decorators are defaults for every step; a step's own decorator
// overrides them argument by argument. `@resources` combines with
// `@kubernetes` by taking the larger value of each. The result, StepConfig,
// is what the IR lowering turns into a pod; it holds no Kubernetes syntax.
#ifndef FLOWC_GRAPH_DECORATORS_H_
#define FLOWC_GRAPH_DECORATORS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/graph/code.h"
#include "compiler/graph/neuron.h"
#include "compiler/graph/quantity.h"
#include "compiler/graph/queue.h"
#include "compiler/graph/trainjob.h"
#include "compiler/parse/ast.h"
#include "compiler/support/shared.h"

namespace flowc::graph {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

struct TolerationConfig {
  std::string key;
  std::string op;
  std::string value;
  std::string effect;
  std::optional<int64_t> toleration_seconds;
};

struct SecurityContextConfig {
  std::optional<bool> privileged;
  std::optional<bool> allow_privilege_escalation;
  std::optional<int64_t> run_as_user;
  std::optional<int64_t> run_as_group;
  std::optional<bool> run_as_non_root;
};

struct RetryConfig {
  int64_t times = 0;
  int64_t minutes_between_retries = 0;
};

// A step's decorators, resolved: defaults applied, flow-level values merged
// in, @resources combined.
struct StepConfig {
  int64_t cpu_millis = 0;
  Quantity memory;
  Quantity disk;
  int64_t gpu = 0;
  std::string gpu_vendor;
  int64_t neuron = 0;  // trainium or its alias inferentia
  int64_t efa = 0;
  // What the pod carries as it is, Shared (compiler/support/shared.h) and
  // interned as the steps are resolved (ConfigValues): the lowering hands it
  // on, and a step holds 8 bytes for each.
  Shared<std::string> image;
  Shared<std::string> image_pull_policy;
  Shared<std::vector<std::string>> image_pull_secrets;
  Shared<std::string> namespace_;
  Shared<std::string> service_account;
  Shared<std::vector<std::string>> secrets;  // @kubernetes secrets, then @secrets sources
  Shared<KeyValues> node_selector;
  std::vector<TolerationConfig> tolerations;
  Shared<KeyValues> labels;
  Shared<KeyValues> annotations;
  bool use_tmpfs = false;
  std::optional<int64_t> tmpfs_size_mib;
  std::string tmpfs_path;
  bool tmpfs_tempdir = false;
  Shared<KeyValues> persistent_volume_claims;  // claim name -> mount path
  std::optional<int64_t> shared_memory_mib;
  std::optional<int64_t> port;
  bool guaranteed = false;  // qos="Guaranteed"
  Boxed<SecurityContextConfig> security_context;
  Shared<KeyValues> env;  // @environment vars, in written order
  std::optional<int64_t> parallel_nodes;
  // The large parts few steps have are boxed: a step without them pays a
  // pointer for each (with the Shared fields, StepConfig went from 992 to 448
  // bytes).
  Boxed<NeuronConfig> neuron_dra;  // @neuron
  Boxed<TrainJobConfig> trainjob;  // @trainjob
  Boxed<CodeConfig> code;          // @code
  Boxed<QueueConfig> queue;        // @queue
  std::optional<RetryConfig> retry;
  std::optional<int64_t> timeout_seconds;
};

// One Shared value for each distinct string and list of the steps'
// configurations: steps repeat the flow's image, labels and secrets.
using ConfigValues = InternerSet<std::string, KeyValues, std::vector<std::string>>;

struct ScheduleConfig {
  std::string cron;
  std::string timezone;
  diag::SourceRange range;
};

// The flow's own decorators, checked once: they are the defaults of every
// step, and hold the flow-only @schedule.
struct FlowDefaults {
  std::vector<const ast::Decorator*> decorators;  // valid step-level ones
  std::optional<ScheduleConfig> schedule;
  std::optional<QueueConfig> queue;  // the flow's own @queue: the jobset target's one queue
  // The files of the flow's @code, read once for every step; null without
  // one, or when they could not be read (reported once, for the flow).
  std::shared_ptr<const CodeBundle> code;
};

// Checks the flow's decorators. Errors are reported once, here, not per step.
FlowDefaults CheckFlowDecorators(const std::vector<ast::Decorator>& decorators,
                                 diag::Reporter& report);

// Resolves one step's configuration: its own decorators over `defaults`.
// A conflict between values (gpu together with trainium, say) is reported
// here only when the step wrote one of them; CheckFlowDecorators reports
// those the flow alone causes, once.
std::optional<StepConfig> ResolveStepConfig(const FlowDefaults& defaults, const ast::Step& step,
                                            ConfigValues& values, diag::Reporter& report);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_DECORATORS_H_
