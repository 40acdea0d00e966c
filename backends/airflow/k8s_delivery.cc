#include "backends/airflow/k8s_delivery.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>
#include <utility>

#include "backends/airflow/pod_kwargs.h"
#include "backends/k8s/jobset.h"
#include "backends/k8s/objects.h"
#include "backends/k8s/trainjob.h"
#include "compiler/ir/content_key.h"

namespace flowc::backends::airflow {
namespace {

// The JobSet of a @parallel step, with its commands as Jinja templates that
// flowc_gang renders; nothing else in it is rendered.
class GangStrings final : public k8s::StringPolicy {
 public:
  explicit GangStrings(const ir::Flow& flow) {
    scope_.params = &flow.params;
    scope_.item = JinjaScope::Item::kVariable;
  }
  std::string Text(const ir::Text& text) const override { return JinjaText(text, scope_); }

 private:
  JinjaScope scope_;
};

// A gang task's poke interval, in seconds: Airflow's BaseSensorOperator
// advises more than a minute in reschedule mode (airflow/sensors/base.py).
constexpr int64_t kGangPokeSeconds = 60;
// A gang task's sensor `timeout`, in seconds (a year). The sensor counts it
// from the first poke of the first try, across retries (BaseSensorOperator.
// execute, in Airflow 2 and in the Task SDK: the first reschedule date of try
// `max_tries - retries + 1`), and defaults to 7 days ([sensors]
// default_timeout); flowc_gang bounds each try by @timeout itself, so this
// only keeps the default from cutting a long step.
constexpr int64_t kGangSensorTimeoutSeconds = 365 * 24 * 3600;

// When a gang of each kind has ended, as flowc_gang_end reads it: a status
// field's value, or a status condition of a type that is "True".
nlohmann::json GangEnds(const std::string& kind) {
  using json = nlohmann::json;
  if (kind == "JobSet") {
    // jobset.x-k8s.io/v1alpha2 JobSetStatus.terminalState: "Completed" or
    // "Failed" once the JobSet has finished (the conditions the Argo target's
    // success and failure conditions read, too).
    return {{"succeeded", json::array({{{"field", "terminalState"}, {"value", "Completed"}}})},
            {"failed", json::array({{{"field", "terminalState"}, {"value", "Failed"}}})}};
  }
  // trainer.kubeflow.org/v1alpha1 TrainJob: conditions Complete and Failed
  // (backends/k8s/trainjob.h).
  return {{"succeeded", json::array({{{"condition", k8s::kTrainJobComplete}}})},
          {"failed", json::array({{{"condition", k8s::kTrainJobFailed}}})}};
}

}  // namespace

std::vector<ObjectSetup> PlanObjectSetups(const ir::Flow& flow) {
  std::vector<ObjectSetup> setups;
  std::vector<size_t> setup_of(flow.objects.size(), SIZE_MAX);
  for (size_t s = 0; s < flow.steps.size(); ++s) {
    for (size_t o : flow.steps[s].objects) {
      if (setup_of[o] != SIZE_MAX) continue;
      if (setups.empty() || setups.back().step != s) setups.push_back({s, {}, {}});
      setups.back().objects.push_back(o);
      setup_of[o] = setups.size() - 1;
    }
  }
  for (size_t s = 0; s < flow.steps.size(); ++s) {
    for (size_t o : flow.steps[s].objects) {
      std::vector<size_t>& users = setups[setup_of[o]].users;
      if (users.empty() || users.back() != s) users.push_back(s);
    }
  }
  return setups;
}

std::string ObjectKey(const ir::Object& object) {
  return fmt::format("{}/{}/{}", object.kind(), object.namespace_, object.name);
}

void WriteWhenFull(std::string& text, OutputSink& sink) {
  if (text.size() < kFlushBytes) return;
  sink.Write(text);
  text.clear();
}

void WriteObjectsBlock(const ir::Flow& flow, OutputSink& sink) {
  std::string out =
      "\n\n# The objects beside the pods: the documents `flowc compile --target argo` and\n"
      "# `--target jobset` put first in their streams. flowc_create_objects creates each one\n"
      "# that is absent, before the first task that needs it, and fails on one that exists\n"
      "# with other content.\n"
      "FLOWC_OBJECTS = {\n";
  // A flow may hold one object per step, most of one content (the
  // TrainingRuntimes of identical @trainjob steps): each content's YAML is
  // rendered and escaped once.
  std::unordered_map<std::string, std::string> contents;  // by ObjectContentKey
  for (const ir::Object& object : flow.objects) {
    auto [content, fresh] = contents.try_emplace(ir::ObjectContentKey(object));
    if (fresh) content->second = PythonBlockBody(k8s::ObjectContentYaml(object));
    std::string head = PythonBlockBody(k8s::ObjectHeadYaml(object));
    out += fmt::format("    {}: {},\n", PythonString(ObjectKey(object)),
                       PythonBlockString({head, content->second}));
    WriteWhenFull(out, sink);
  }
  out += "}\n";
  sink.Write(out);
}

std::string GangBaseName(const ir::Flow& flow, const ir::Step& step) {
  return fmt::format("{}-{}", flow.k8s_name, step.k8s_name);
}

Gang StepGang(const ir::Flow& flow, const ir::Step& step) {
  YAML::Emitter yaml;
  GangStrings strings(flow);
  const std::string base = GangBaseName(flow, step);
  if (step.trainjob) {
    // The TrainingRuntime it references is one of the flow's objects, which
    // the step's setup task creates first (PlanObjectSetups).
    k8s::EmitStepTrainJob(yaml, flow, step, base, strings);
  } else {
    k8s::EmitStepJobSet(yaml, flow, step, base, strings);
  }
  std::string text = yaml.c_str();
  if (text.empty() || text.back() != '\n') text += '\n';
  return {step.trainjob ? "TrainJob" : "JobSet", text};
}

namespace {

constexpr const char* kGangsStart =
    "\n\n# The gang each @parallel step runs: the JobSet `flowc compile --target jobset` emits\n"
    "# for the step, or the TrainJob `--target argo` creates for a @trainjob step. flowc_gang\n"
    "# renders its commands, names it per try and waits for it as a sensor in reschedule\n"
    "# mode, holding no worker slot between pokes.\n"
    "FLOWC_GANGS = {\n";

void AppendGang(std::string& out, const std::string& name, const Gang& gang) {
  out += fmt::format("    {}: {},\n", PythonString(name),
                     PythonString(gang.yaml, StringStyle::kBlock));
}

// What follows the gangs: the end rules of each kind in `kinds` (sorted), and the sensor's
// settings.
std::string GangsEnd(const std::set<std::string>& kinds) {
  std::string out =
      "}\n\n# How a gang of each kind shows that it has ended (see flowc_gang_end).\n";
  PyExpr::Items ends;
  for (const std::string& kind : kinds) {
    ends.emplace_back(PyExpr::Str(kind), JsonToPython(GangEnds(kind)));
  }
  out += fmt::format("FLOWC_GANG_ENDS = {}\n", PyExpr::Dict(std::move(ends)).FormatAt(0, 18, 0));
  out += fmt::format(
      "\n# Every gang task is a sensor in reschedule mode, poking every {} s. Its own timeout (a\n"
      "# year) only keeps Airflow's default of 7 days from cutting a long step: @timeout bounds\n"
      "# each try in flowc_gang, from the gang's creation.\n"
      "FLOWC_GANG_SENSOR = {{\"mode\": \"reschedule\", \"poke_interval\": {}, \"timeout\": {}}}\n",
      kGangPokeSeconds, kGangPokeSeconds, kGangSensorTimeoutSeconds);
  return out;
}

}  // namespace

void WriteGangsBlock(const ir::Flow& flow, const std::vector<size_t>& steps, OutputSink& sink) {
  std::string out = kGangsStart;
  std::set<std::string> kinds;
  for (size_t s : steps) {
    Gang gang = StepGang(flow, flow.steps[s]);
    AppendGang(out, flow.steps[s].name, gang);
    kinds.insert(gang.kind);
    WriteWhenFull(out, sink);
  }
  sink.Write(out + GangsEnd(kinds));
}

}  // namespace flowc::backends::airflow
