#include "compiler/graph/decorators.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/graph/capacity.h"
#include "compiler/graph/cron.h"
#include "compiler/graph/decorator_args.h"
#include "compiler/graph/decorator_table.h"
#include "compiler/graph/step_args.h"
#include "compiler/graph/timezone.h"

namespace flowc::graph {
namespace {

using ast::Value;
using diag::Code;
using Kind = ast::Value::Kind;
using decorator_table::ArgSpec;
using decorator_table::CheckDecorators;
using decorator_table::DecoratorSpec;
using decorator_table::FindDecorator;
using decorator_table::kOnFlow;
using decorator_table::kOnStep;
using decorator_table::Placement;
using decorator_table::Table;
using step_args::Args;
using step_args::ArgsByName;
using step_args::ArgsOf;
using step_args::Field;
using step_args::Find;
using step_args::Pairs;
using step_args::Resolved;
using step_args::Size;
using step_args::Strings;

void ApplyKubernetes(const Args& a, ConfigValues& values, StepConfig& c) {
  c.cpu_millis = std::llround(a["cpu"]->AsDouble() * 1000);
  c.memory = Size(*a["memory"]);
  c.disk = Size(*a["disk"]);
  if (auto* v = a["gpu"]) c.gpu = v->int_value;
  c.gpu_vendor = a["gpu_vendor"]->string;
  if (auto* v = a["trainium"]) c.neuron = v->int_value;
  if (auto* v = a["inferentia"]) c.neuron = v->int_value;
  if (auto* v = a["efa"]) c.efa = v->int_value;
  c.image = values(a["image"]->string);
  if (auto* v = a["image_pull_policy"]) c.image_pull_policy = values(v->string);
  c.image_pull_secrets = values(Strings(a["image_pull_secrets"]));
  if (auto* v = a["namespace"]) c.namespace_ = values(v->string);
  if (auto* v = a["service_account"]) c.service_account = values(v->string);
  c.secrets = values(Strings(a["secrets"]));
  c.node_selector = values(Pairs(a["node_selector"]));
  if (auto* v = a["tolerations"]) {
    for (const Value& item : v->items) {
      TolerationConfig t;
      if (auto* f = Field(item, "key")) t.key = f->string;
      t.op = "Equal";
      if (auto* f = Field(item, "operator")) t.op = f->string;
      if (auto* f = Field(item, "value")) t.value = f->string;
      if (auto* f = Field(item, "effect")) t.effect = f->string;
      if (auto* f = Field(item, "tolerationSeconds")) t.toleration_seconds = f->int_value;
      c.tolerations.push_back(std::move(t));
    }
  }
  c.labels = values(Pairs(a["labels"]));
  c.annotations = values(Pairs(a["annotations"]));
  c.use_tmpfs = a["use_tmpfs"]->bool_value;
  if (auto* v = a["tmpfs_size"]) c.tmpfs_size_mib = v->int_value;
  c.tmpfs_path = a["tmpfs_path"]->string;
  c.tmpfs_tempdir = a["tmpfs_tempdir"]->bool_value;
  c.persistent_volume_claims = values(Pairs(a["persistent_volume_claims"]));
  if (auto* v = a["shared_memory"]) c.shared_memory_mib = v->int_value;
  if (auto* v = a["port"]) c.port = v->int_value;
  c.guaranteed = a["qos"]->string == "Guaranteed";
  if (auto* v = a["security_context"]) {
    SecurityContextConfig s;
    if (auto* f = Field(*v, "privileged")) s.privileged = f->bool_value;
    if (auto* f = Field(*v, "allow_privilege_escalation")) s.allow_privilege_escalation = f->bool_value;
    if (auto* f = Field(*v, "run_as_user")) s.run_as_user = f->int_value;
    if (auto* f = Field(*v, "run_as_group")) s.run_as_group = f->int_value;
    if (auto* f = Field(*v, "run_as_non_root")) s.run_as_non_root = f->bool_value;
    c.security_context = s;
  }
}

// @resources: the larger of each value wins.
void ApplyResources(const Args& a, StepConfig& c) {
  if (auto* v = a["cpu"]) c.cpu_millis = std::max<int64_t>(c.cpu_millis, std::llround(v->AsDouble() * 1000));
  if (auto* v = a["memory"]) {
    Quantity q = Size(*v);
    if (q.bytes > c.memory.bytes) c.memory = q;
  }
  if (auto* v = a["disk"]) {
    Quantity q = Size(*v);
    if (q.bytes > c.disk.bytes) c.disk = q;
  }
  if (auto* v = a["gpu"]) c.gpu = std::max(c.gpu, v->int_value);
  if (auto* v = a["shared_memory"]) {
    c.shared_memory_mib = std::max(c.shared_memory_mib.value_or(0), v->int_value);
  }
}

// ---------------------------------------------------------------------------
// @schedule

std::optional<ScheduleConfig> ResolveSchedule(const ast::Decorator& decorator,
                                              diag::Reporter& report) {
  const DecoratorSpec& spec = *FindDecorator("schedule");
  Args a(spec, nullptr, &decorator);
  ScheduleConfig schedule;
  schedule.range = decorator.range;
  std::vector<std::string_view> given;
  if (auto* v = a["cron"]) {
    given.push_back("cron");
    CronError error = CheckCron(v->string);
    if (!error.why.empty()) {
      report(diag::Code::kInvalidSchedule, v->range,
             fmt::format("cron expression '{}' {}", v->string, error.why))
          .SetHelp(std::move(error.help));
      return std::nullopt;
    }
    schedule.cron = v->string;
  }
  static const std::pair<std::string_view, std::string_view> kShortcuts[] = {
      {"hourly", "0 * * * *"}, {"daily", "0 0 * * *"}, {"weekly", "0 0 * * 0"}};
  for (const auto& [name, cron] : kShortcuts) {
    auto* v = a[name];
    if (v == nullptr) continue;
    if (!v->bool_value) {
      report(diag::Code::kInvalidSchedule, v->range, fmt::format("'{}=false' schedules nothing", name))
          .SetHelp(fmt::format("remove '{}', or set it to true", name));
      return std::nullopt;
    }
    given.push_back(name);
    schedule.cron = std::string(cron);
  }
  if (given.size() != 1) {
    report(diag::Code::kInvalidSchedule, decorator.range,
           given.empty() ? "'@schedule' needs one of cron, hourly, daily or weekly"
                         : fmt::format("'@schedule' takes one of cron, hourly, daily or weekly, "
                                       "found {}",
                                       fmt::join(given, " and ")))
        .SetHelp("for example @schedule(cron=\"0 3 * * *\") or @schedule(daily=true)");
    return std::nullopt;
  }
  if (auto* v = a["timezone"]) {
    if (!CheckTimeZone(*v, report)) return std::nullopt;
    schedule.timezone = v->string;
  }
  return schedule;
}

// Two volumes mounted at one path: shared memory, tmpfs, claims and @code;
// and a file of @code where another volume is mounted.
bool CheckMounts(const StepConfig& c, const Args& k8s, const Args& code, const ast::Step* step,
                 diag::Reporter& report) {
  struct Mount {
    std::string path;
    std::string by;    // "'shared_memory'", "claim 'data'"
    Resolved origin;   // where it was written
    std::string help;  // how to move it
  };
  std::vector<Mount> mounts;
  if (c.shared_memory_mib) {
    Resolved r = k8s.Get("shared_memory");
    if (r.value != nullptr) mounts.push_back({"/dev/shm", "'shared_memory'", r, ""});
  }
  if (c.use_tmpfs) {
    Resolved r = k8s.Get("tmpfs_path");
    if (r.value->range.line == 0) r = k8s.Get("use_tmpfs");  // the default path
    mounts.push_back({c.tmpfs_path, "the tmpfs", r, "set tmpfs_path to another path"});
  }
  if (const Value* claims = k8s["persistent_volume_claims"]) {
    bool from_step = k8s.Get("persistent_volume_claims").from_step;
    for (const ast::MapEntry& entry : claims->entries) {
      mounts.push_back({entry.value.string, fmt::format("claim '{}'", entry.key),
                        Resolved{&entry.value, from_step}, "mount the claim at another path"});
    }
  }
  const size_t others = mounts.size();
  if (c.code) {
    Resolved r = code.Get("path");
    if (r.value->range.line == 0) r = code.Get("files");  // the default path
    mounts.push_back({c.code->path, "'@code'", r, "give '@code' another path"});
  }
  bool ok = true;
  for (size_t i = 0; c.code && i < others; ++i) {
    const Mount& mine = mounts.back();
    if ((step != nullptr) != (mounts[i].origin.from_step || mine.origin.from_step)) continue;
    std::string file = CodeFileUnderMount(*c.code, mounts[i].path);
    if (file.empty()) continue;
    report(diag::Code::kVolumeConflict, mine.origin.value->range,
           fmt::format("'{}' of '@code' collides with {} at '{}'", file, mounts[i].by,
                       mounts[i].path))
        .AddNote(mounts[i].origin.value->range, fmt::format("{} is set here", mounts[i].by))
        .SetHelp(fmt::format("mount {} outside '{}', or leave '{}' out of '@code'", mounts[i].by,
                             c.code->path, file));
    ok = false;
  }
  // The pod's volume for @code is named `code`; a claim may not be.
  const Value* claims = k8s["persistent_volume_claims"];
  for (size_t i = 0; c.code && claims != nullptr && i < claims->entries.size(); ++i) {
    const ast::MapEntry& entry = claims->entries[i];
    bool from_step = k8s.Get("persistent_volume_claims").from_step || code.on_step();
    if (entry.key != kCodeVolumeName || (step != nullptr) != from_step) continue;
    report(diag::Code::kVolumeConflict, entry.key_range,
           fmt::format("claim '{}' has the name of the volume of '@code'", entry.key))
        .AddNote(code.decorator()->range, "'@code' is written here")
        .SetHelp("claims are mounted as volumes of their own name: use another claim name");
    ok = false;
  }
  for (size_t i = 0; i < mounts.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (mounts[i].path != mounts[j].path) continue;
      bool from_step = mounts[i].origin.from_step || mounts[j].origin.from_step;
      if ((step != nullptr) != from_step) continue;  // the other pass reports it
      auto& d = report(diag::Code::kVolumeConflict, mounts[i].origin.value->range,
                       fmt::format("'{}' is mounted twice: by {} and by {}", mounts[i].path,
                                   mounts[i].by, mounts[j].by));
      d.AddNote(mounts[j].origin.value->range, fmt::format("{} is set here", mounts[j].by))
          .SetHelp(mounts[i].help);
      ok = false;
    }
  }
  return ok;
}

// Guaranteed QoS sets limits equal to requests; with neither cpu nor memory
// written, those limits are the defaults, which is rarely what was meant.
void WarnUnsizedGuaranteed(const Args& k8s, const Args& resources, const ast::Step* step,
                           diag::Reporter& report) {
  Resolved qos = k8s.Get("qos");
  if ((step != nullptr) != qos.from_step) return;  // the other pass looks at it
  for (std::string_view name : {"cpu", "memory"}) {
    if (k8s.Get(name).value->range.valid() || resources[name] != nullptr) return;
  }
  report(diag::Code::kGuaranteedWithoutLimits, qos.value->range,
         "Guaranteed QoS without cpu or memory: its limits are the defaults, 1 cpu and 4096M")
      .SetHelp("set cpu and memory in @kubernetes or @resources to the limits the step needs");
}

// Checks that need a step's whole configuration. Errors whose values all come
// from the flow are reported once, for the flow (`step` is null then).
bool CheckResolved(const StepConfig& c, const ArgsByName& args,
                   const ast::Step* step, diag::Reporter& report) {
  const Args& k8s = args.at("kubernetes");
  const Args& resources = args.at("resources");
  auto origin = [&](std::string_view name) -> Resolved {
    Resolved r = k8s.Get(name);
    if (r.value == nullptr && (name == "gpu")) r = resources.Get(name);
    return r;
  };
  // Reports at the step's own value, with a note at the other one.
  auto conflict = [&](std::string_view a, std::string_view b, std::string message,
                      std::string help) {
    Resolved ra = origin(a), rb = origin(b);
    bool from_step = ra.from_step || rb.from_step;
    if ((step != nullptr) != from_step) return false;  // the other pass reports it
    bool a_here = ra.from_step || step == nullptr;
    const Resolved& here = a_here ? ra : rb;
    const Resolved& there = a_here ? rb : ra;
    auto& d = report(diag::Code::kAcceleratorConflict, here.value->range, std::move(message));
    d.AddNote(there.value->range, fmt::format("'{}' is set here", a_here ? b : a))
        .SetHelp(std::move(help));
    return true;
  };
  bool ok = true;
  const Value* trainium = k8s["trainium"];
  const Value* inferentia = k8s["inferentia"];
  if (trainium != nullptr && inferentia != nullptr) {
    ok = !conflict("inferentia", "trainium",
                   "'trainium' and 'inferentia' are both set; 'inferentia' is an alias of "
                   "'trainium'",
                   "keep one of them: both request aws.amazon.com/neuron devices") && ok;
  }
  if (c.gpu > 0 && c.neuron > 0) {
    std::string_view neuron = trainium != nullptr ? "trainium" : "inferentia";
    ok = !conflict("gpu", neuron,
                   fmt::format("a step cannot have both 'gpu' and '{}'", neuron),
                   "GPUs and AWS Neuron devices are never on the same node; split the work into "
                   "two steps") && ok;
  }
  const Args& neuron = args.at("neuron");
  if (neuron.present() && (c.gpu > 0 || c.neuron > 0)) {
    // Reported where the step wrote one of the two, or once for the flow
    // when both come from it.
    std::string_view other = c.gpu > 0 ? "gpu" : trainium != nullptr ? "trainium" : "inferentia";
    Resolved r = origin(other);
    if ((step != nullptr) == (r.from_step || neuron.on_step())) {
      bool at_other = r.from_step || step == nullptr;
      diag::SourceRange here = at_other ? r.value->range : neuron.decorator()->range;
      diag::SourceRange there = at_other ? neuron.decorator()->range : r.value->range;
      auto& d = report(diag::Code::kAcceleratorConflict, here,
                       c.gpu > 0 ? std::string("a step cannot have both 'gpu' and '@neuron'")
                                 : fmt::format("'@neuron' and '{}' both ask for Neuron devices",
                                               other));
      d.AddNote(there, at_other ? std::string("'@neuron' is written here")
                                : fmt::format("'{}' is set here", other));
      d.SetHelp(c.gpu > 0 ? "GPUs and AWS Neuron devices are never on the same node; split the "
                            "work into two steps"
                          : fmt::format("keep '@neuron' for clusters that run the Neuron DRA "
                                        "driver, or '{}' for the device plugin: a node has one "
                                        "or the other",
                                        other));
      ok = false;
    }
  }
  if (c.guaranteed) WarnUnsizedGuaranteed(k8s, resources, step, report);
  WarnInstanceCapacity(c, args, step, report);
  return CheckMounts(c, k8s, args.at("code"), step, report) && ok;
}

StepConfig Apply(const ArgsByName& args, ConfigValues& values) {
  StepConfig c;
  ApplyKubernetes(args.at("kubernetes"), values, c);
  ApplyResources(args.at("resources"), c);
  if (auto* v = args.at("parallel")["nodes"]) c.parallel_nodes = v->int_value;
  const Args& retry = args.at("retry");
  if (retry.present()) {
    c.retry = RetryConfig{retry["times"]->int_value, retry["minutes_between_retries"]->int_value};
  }
  const Args& timeout = args.at("timeout");
  if (timeout.present()) {
    int64_t total = 0;
    if (auto* v = timeout["seconds"]) total += v->int_value;
    if (auto* v = timeout["minutes"]) total += v->int_value * 60;
    if (auto* v = timeout["hours"]) total += v->int_value * 3600;
    c.timeout_seconds = total;
  }
  c.env = values(Pairs(args.at("environment")["vars"]));
  std::vector<std::string> sources = Strings(args.at("secrets")["sources"]);
  if (!sources.empty()) {
    std::vector<std::string> secrets = c.secrets;
    for (std::string& s : sources) {
      if (std::find(secrets.begin(), secrets.end(), s) == secrets.end()) secrets.push_back(s);
    }
    c.secrets = values(std::move(secrets));
  }
  return c;
}

// Checks on single decorators that involve several of their arguments.
bool CheckWhole(const ast::Decorator& decorator, Placement placement, diag::Reporter& report) {
  const std::string& name = decorator.name.name;
  if (name == "neuron") return CheckNeuronDecorator(decorator, placement == kOnFlow, report);
  if (name == "code") return CheckCodeDecorator(decorator, placement == kOnFlow, report);
  if (name == "kubernetes") {
    for (const ast::Argument& arg : decorator.arguments) {
      if (arg.name.name == "labels") return CheckNoKueueLabels(&arg.value, report);
    }
  }
  if (name == "parallel" && decorator.arguments.empty()) {
    report(diag::Code::kMissingArgument, decorator.range, "'@parallel' needs 'nodes'")
        .SetHelp("write @parallel(nodes=4) for a gang of four pods");
    return false;
  }
  if (name == "timeout") {
    int64_t total = 0;
    for (const ast::Argument& arg : decorator.arguments) {
      int64_t unit = arg.name.name == "hours" ? 3600 : arg.name.name == "minutes" ? 60 : 1;
      if (arg.value.int_value > std::numeric_limits<int32_t>::max()) {
        report(diag::Code::kArgumentRange, arg.value.range, "'@timeout' is longer than 68 years");
        return false;
      }
      total += arg.value.int_value * unit;
    }
    if (total <= 0) {
      report(diag::Code::kArgumentRange, decorator.range,
             "'@timeout' must add up to more than 0 seconds")
          .SetHelp("write @timeout(minutes=30), or seconds, minutes and hours, which are summed");
      return false;
    }
  }
  return true;
}

}  // namespace

FlowDefaults CheckFlowDecorators(const std::vector<ast::Decorator>& decorators,
                                 diag::Reporter& report) {
  FlowDefaults defaults;
  bool ok = true;
  for (const ast::Decorator* d : CheckDecorators(decorators, kOnFlow, report, &ok)) {
    if (!CheckWhole(*d, kOnFlow, report)) {
      ok = false;
      continue;
    }
    if (d->name.name == "schedule") {
      defaults.schedule = ResolveSchedule(*d, report);
    } else {
      if (d->name.name == "queue") defaults.queue = FlowQueue(*d);
      if (d->name.name == "code") defaults.code = LoadCode(*d, report);  // once for every step
      defaults.decorators.push_back(d);
    }
  }
  auto args = ArgsOf(defaults.decorators, {});
  ConfigValues values;
  StepConfig flow_config = Apply(args, values);
  bool code_ok = true;
  flow_config.code =
      ResolveCode(Find(defaults.decorators, "code"), defaults.code, nullptr, report, &code_ok);
  CheckResolved(flow_config, args, nullptr, report);
  return defaults;
}

std::optional<StepConfig> ResolveStepConfig(const FlowDefaults& defaults, const ast::Step& step,
                                            ConfigValues& values, diag::Reporter& report) {
  bool ok = true;
  std::vector<const ast::Decorator*> own = CheckDecorators(step.decorators, kOnStep, report, &ok);
  for (const ast::Decorator* d : own) ok = CheckWhole(*d, kOnStep, report) && ok;
  if (!ok) return std::nullopt;
  auto args = ArgsOf(defaults.decorators, own);
  StepConfig config = Apply(args, values);
  config.neuron_dra = ResolveNeuron(Find(defaults.decorators, "neuron"), Find(own, "neuron"),
                                    config.parallel_nodes, report, &ok);
  config.code =
      ResolveCode(Find(defaults.decorators, "code"), defaults.code, Find(own, "code"), report, &ok);
  config.queue = ResolveQueue(Find(defaults.decorators, "queue"), Find(own, "queue"), report, &ok);
  if (!ok) return std::nullopt;
  if (!CheckResolved(config, args, &step, report)) return std::nullopt;
  config.trainjob = ResolveTrainJob(defaults.decorators, own, config, report, &ok);
  if (!ok) return std::nullopt;
  return config;
}

}  // namespace flowc::graph
