#include "backends/jobset/jobset_backend.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

#include "backends/k8s/jobset.h"
#include "backends/k8s/objects.h"
#include "backends/k8s/pod_yaml.h"
#include "backends/k8s/yaml_scalar.h"
#include "compiler/ir/graph_to_ir.h"

namespace flowc::backends::jobset {
namespace {

using diag::Code;
using k8s::Key;
using k8s::ValueScalar;

// The most `dependsOn` entries one replicated Job may have (the JobSet CRD's
// maxItems).
constexpr size_t kMaxDependsOn = 5;

// Failure-policy rule for the steps without @retry (its name must match the
// webhook's ^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$).
constexpr const char* kNoRetryRule = "stepsWithoutRetry";

// A param's default as the string a command sees: a string default without
// its JSON quotes, anything else as the flow wrote it (3, 0.5, true, ["a"]).
std::string DefaultText(const ir::Param& param) {
  const std::string& json = *param.default_json;
  nlohmann::json value = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (value.is_string()) return value.get<std::string>();
  return json;
}

// Appends `piece`, already escaped for kubelet on its own, to `out`. Kubelet
// reads `$$` as `$` and `$(` as a reference: if `out` ends in an odd run of
// `$` (its last one meant literally) and `piece` starts with `$` or `(`, the
// join would pair them differently, so that last `$` is escaped here. So it
// is before a non-ASCII byte, as ir::EscapeDollars escapes it inside one
// piece: a kubelet that reads the byte after a lone `$` as a character of its
// own (expansion.go tryReadVariableName: string(input[0])) garbles it. A `$`
// that ends the whole text, or precedes any other byte, reaches the
// container as it is (Expand copies a last `$`, and `$` with the byte after
// it).
void AppendEscaped(std::string& out, std::string_view piece) {
  if (!piece.empty() && (piece.front() == '$' || piece.front() == '(' ||
                         static_cast<unsigned char>(piece.front()) >= 0x80)) {
    size_t run = 0;
    while (run < out.size() && out[out.size() - 1 - run] == '$') ++run;
    if (run % 2 == 1) out += '$';
  }
  out += piece;
}

// A JobSet has no run-time parameters: `{{param}}` becomes the param's
// default, `{{run_id}}` the JobSet's name (unique among the namespace's live
// JobSets). Literal text needs no escaping, as nothing templates a JobSet.
class JobSetStrings final : public k8s::StringPolicy {
 public:
  JobSetStrings(const ir::Flow& flow, std::string run_id) : run_id_(std::move(run_id)) {
    // Kubelet expands `$(VAR)` in a command; the IR escaped the flow's own
    // text for it, and a value spliced in here must reach the container as
    // written too.
    for (const ir::Param& param : flow.params) {
      if (param.default_json) {
        defaults_.emplace_back(param.name, ir::EscapeDollars(DefaultText(param)));
      }
    }
  }

  std::string Text(const ir::Text& text) const override {
    std::string out;
    for (const graph::Segment& segment : text.segments) {
      switch (segment.kind) {
        case graph::Segment::Kind::kGang:  // never in the IR: lowered to literal `$(FLOWC_...)`
        case graph::Segment::Kind::kLiteral:
          AppendEscaped(out, segment.text);
          break;
        case graph::Segment::Kind::kRunId:
          AppendEscaped(out, run_id_);
          break;
        case graph::Segment::Kind::kParam:
          AppendEscaped(out, Default(segment.text));
          break;
        // Unreachable: a flow with a foreach never gets here (CheckCapabilities).
        case graph::Segment::Kind::kItem:
          AppendEscaped(out, "{{item}}");
          break;
      }
    }
    return out;
  }

 private:
  std::string Default(const std::string& name) const {
    for (const auto& [param, value] : defaults_) {
      if (param == name) return value;
    }
    return "{{" + name + "}}";  // unreachable: Emit rejects params without a default
  }

  std::string run_id_;
  std::vector<std::pair<std::string, std::string>> defaults_;
};

// Every diagnostic of the flow shapes one JobSet cannot hold. Reports them
// all and returns false if it reported any.
class Checker {
 public:
  Checker(const ir::Flow& flow, diag::Reporter& report) : flow_(flow), report_(report) {}

  bool Run() {
    CheckNamespace();
    for (const ir::Step& step : flow_.steps) {
      CheckParams(step);
      // The flow's one JobSet is named after the flow.
      ok_ &= k8s::CheckJobSetNames(flow_, step, {flow_.k8s_name.size(), 1, 0, "<flow>"}, report_);
      CheckDependencies(step);
      CheckTrainJob(step);
      CheckQueue(step);
    }
    CheckRetries();
    return ok_;
  }

 private:
  // One JobSet lives in one namespace.
  void CheckNamespace() {
    ok_ = CheckOneNamespace(flow_, "jobset", "puts the whole flow in one namespace", report_) && ok_;
  }

  // Params are fixed at compile time: each reference needs a default.
  void CheckParams(const ir::Step& step) {
    std::set<std::string> reported;
    for (const ir::Text& arg : step.pod.command) {
      for (const graph::Segment& segment : arg.segments) {
        if (segment.kind != graph::Segment::Kind::kParam) continue;
        const ir::Param* param = FindParam(segment.text);
        if (param == nullptr || param->default_json || !reported.insert(segment.text).second) {
          continue;
        }
        ok_ = false;
        report_(Code::kUnsupportedByTarget, step.range,
                fmt::format("step '{}' uses param '{}', which has no default; target 'jobset' has "
                            "no run-time parameters and substitutes defaults at compile time",
                            step.name, param->name))
            .AddNote(param->range, fmt::format("'{}' is declared here", param->name))
            .SetHelp(
                fmt::format("give '{}' a default, or compile with --target argo", param->name));
      }
    }
  }

  const ir::Param* FindParam(const std::string& name) const {
    for (const ir::Param& param : flow_.params) {
      if (param.name == name) return &param;
    }
    return nullptr;
  }

  // The flow is one JobSet, and a JobSet's replicated jobs hold Jobs, not a
  // TrainJob (which the Trainer turns into a JobSet of its own).
  void CheckTrainJob(const ir::Step& step) {
    if (!step.trainjob) return;
    ok_ = false;
    report_(Code::kUnsupportedByTarget, step.range,
            fmt::format("step '{}' runs as a Kubeflow Trainer TrainJob, which target 'jobset' "
                        "cannot express: the whole flow is one JobSet, and a JobSet cannot hold "
                        "a TrainJob",
                        step.name))
        .SetHelp("compile with --target argo or --target airflow, which create the TrainJob");
  }

  // The flow is one JobSet and so one Kueue workload, admitted whole in the flow's queue:
  // a step cannot wait in a queue of its own.
  void CheckQueue(const ir::Step& step) {
    const ir::Queue* flow = flow_.queue ? &*flow_.queue : nullptr;
    const ir::Queue* own = step.queue ? &*step.queue : nullptr;
    auto describe = [](const ir::Queue* q) {
      if (q == nullptr || q->name.empty()) return std::string("no queue");
      return q->priority.empty()
                 ? fmt::format("queue '{}'", q->name)
                 : fmt::format("queue '{}' with priority '{}'", q->name, q->priority);
    };
    if (own == nullptr || (flow != nullptr && flow->name == own->name &&
                           flow->priority == own->priority)) {
      return;
    }
    ok_ = false;
    auto& d = report_(Code::kUnsupportedByTarget, own->range,
                      fmt::format("step '{}' has {} but the flow has {}; target 'jobset' runs "
                                  "the whole flow as one Kueue workload",
                                  step.name, describe(own), describe(flow)));
    d.AddNote("Kueue admits the flow's one JobSet at once, for the sum of its steps' requests, "
              "in the queue on its own labels");
    if (flow != nullptr) d.AddNote(flow->range, "the flow's '@queue' is written here");
    d.SetHelp("write '@queue' on the flow alone, or compile with --target argo or --target "
              "airflow, where each step waits in its own queue");
  }

  void CheckDependencies(const ir::Step& step) {
    if (step.predecessors.size() <= kMaxDependsOn) return;
    ok_ = false;
    report_(Code::kTooManyDependencies, step.range,
            fmt::format("step '{}' joins {} steps; a JobSet job can depend on at most {}",
                        step.name, step.predecessors.size(), kMaxDependsOn))
        .SetHelp(
            fmt::format("join the branches in stages of at most {}, or compile with --target argo",
                        kMaxDependsOn));
  }

  // A JobSet restarts as a whole and has one restart budget
  // (failurePolicy.maxRestarts), so every retried step must ask for the same
  // number of retries; steps without @retry fail the JobSet (a rule).
  void CheckRetries() {
    const ir::Step* most = nullptr;
    for (const ir::Step& step : flow_.steps) {
      if (step.retry && step.retry->times > 0 &&
          (!most || step.retry->times > most->retry->times)) {
        most = &step;
      }
    }
    if (most == nullptr) return;
    // A JobSet restarts at once; say so once, at the first step that asked
    // for a delay.
    for (const ir::Step& step : flow_.steps) {
      if (step.retry && step.retry->times > 0 && step.retry->minutes_between_retries > 0) {
        report_(Code::kRetryDelayIgnored, step.range,
                fmt::format("target 'jobset' restarts at once: the wait of {} minute{} between "
                            "retries of step '{}' is not honoured",
                            step.retry->minutes_between_retries,
                            step.retry->minutes_between_retries == 1 ? "" : "s", step.name))
            .SetHelp("compile with --target argo or --target airflow to wait between retries");
        break;
      }
    }
    for (const ir::Step& step : flow_.steps) {
      if (!step.retry || step.retry->times == 0 || step.retry->times == most->retry->times) {
        continue;
      }
      ok_ = false;
      report_(
          Code::kUnsupportedByTarget, step.range,
          fmt::format("step '{}' retries {} but step '{}' {}; target 'jobset' has one "
                      "restart budget for the whole flow",
                      step.name, Times(step.retry->times), most->name, Times(most->retry->times)))
          .AddNote("a failed step restarts the whole JobSet (failurePolicy.maxRestarts)")
          .SetHelp(
              "give every retried step the same @retry(times=...), or compile with "
              "--target argo");
    }
  }

  static std::string Times(int64_t n) { return fmt::format("{} time{}", n, n == 1 ? "" : "s"); }

  const ir::Flow& flow_;
  diag::Reporter& report_;
  bool ok_ = true;
};

void EmitFlowJobSet(YAML::Emitter& out, const ir::Flow& flow, const k8s::StringPolicy& strings) {
  const ir::Step& end = flow.steps.back();
  int64_t max_restarts = 0;
  std::vector<std::string> without_retry;
  for (const ir::Step& step : flow.steps) {
    if (step.retry && step.retry->times > 0) {
      max_restarts = std::max(max_restarts, step.retry->times);
    } else {
      without_retry.push_back(step.k8s_name);
    }
  }

  k8s::BeginObject(out, k8s::kJobSetApiVersion, "JobSet");
  Key(out, "metadata");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "name");
  out << YAML::Value;
  k8s::EmitString(out, flow.k8s_name);
  if (!end.pod.namespace_.empty()) {  // every step agrees (Checker)
    Key(out, "namespace");
    out << YAML::Value;
    k8s::EmitString(out, strings.Literal(end.pod.namespace_));
  }
  // The flow's JobSet is the one object Kueue admits (every step's queue is the flow's:
  // Checker); its pods carry no queue labels.
  if (flow.queue) k8s::EmitLabels(out, flow.queue->labels, strings);
  out << YAML::EndMap;

  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  k8s::EmitJobSetNetwork(out);
  // The flow succeeds when `end` does; every other job has finished by then.
  Key(out, "successPolicy");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "operator");
  ValueScalar(out, "All");
  Key(out, "targetReplicatedJobs");
  out << YAML::Value << YAML::BeginSeq;
  k8s::EmitString(out, end.k8s_name);
  out << YAML::EndSeq << YAML::EndMap;
  if (max_restarts > 0) {
    Key(out, "failurePolicy");
    out << YAML::Value << YAML::BeginMap;
    Key(out, "maxRestarts");
    out << YAML::Value << max_restarts;
    if (!without_retry.empty()) {
      Key(out, "rules");
      out << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
      Key(out, "name");
      ValueScalar(out, kNoRetryRule);
      Key(out, "action");
      ValueScalar(out, "FailJobSet");
      Key(out, "targetReplicatedJobs");
      out << YAML::Value << YAML::BeginSeq;
      for (const std::string& name : without_retry) k8s::EmitString(out, name);
      out << YAML::EndSeq << YAML::EndMap << YAML::EndSeq;
    }
    out << YAML::EndMap;
  }

  Key(out, "replicatedJobs");
  out << YAML::Value << YAML::BeginSeq;
  for (const ir::Step& step : flow.steps) {
    std::vector<std::string> depends_on;
    for (size_t predecessor : step.predecessors) {
      depends_on.push_back(flow.steps[predecessor].k8s_name);
    }
    k8s::EmitReplicatedJob(out, step, depends_on, strings);
  }
  out << YAML::EndSeq;
  out << YAML::EndMap;  // spec
  out << YAML::EndMap;
}

class JobSetTarget final : public Backend {
 public:
  std::string_view name() const override { return "jobset"; }
  std::string_view extension() const override { return ".yaml"; }
  // No foreach: a JobSet's jobs are fixed when it is created. No schedule:
  // a JobSet runs once. Params are substituted by their defaults.
  unsigned capabilities() const override { return kParallel | kParams; }

  bool Emit(const ir::Flow& flow, const EmitOptions& /*options*/, OutputSink& out,
            diag::Reporter& report) const override {
    if (flow.steps.empty()) return false;
    if (!Checker(flow, report).Run()) return false;
    JobSetStrings strings(flow, flow.k8s_name);
    k8s::SinkEmitter yaml(out, flow.steps.size());
    // The objects the pods need come first, so applying the stream in order
    // creates them before the JobSet's pods ask for them.
    k8s::EmitObjectDocuments(yaml.yaml(), flow);
    EmitFlowJobSet(yaml.yaml(), flow, strings);
    yaml.Flush();
    out.Write("\n");
    return true;
  }
};

}  // namespace

const Backend& JobSetBackend() {
  static const JobSetTarget backend;
  return backend;
}

}  // namespace flowc::backends::jobset
