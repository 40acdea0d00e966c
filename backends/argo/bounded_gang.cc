#include "backends/argo/bounded_gang.h"

#include <fmt/format.h>

#include "backends/argo/templating.h"
#include "backends/k8s/jobset.h"
#include "backends/k8s/trainjob.h"
#include "backends/k8s/yaml_scalar.h"

namespace flowc::backends::argo {
namespace {

using k8s::EmitString;
using k8s::Key;
using k8s::ValueScalar;

constexpr const char* kGangTask = "gang";
// A different hash per element of a foreach: the node's full name holds the element's index.
constexpr const char* kElementHash = "{{=sprig.trunc(5, sprig.sha1sum(node.name))}}";
constexpr const char* kAttempt = "{{retries}}";

// The gang's name, as the DAG computes it for both of its templates.
std::string GangName(const ir::Step& step, const std::string& run_id) {
  std::string name = fmt::format("{}-{}", run_id, step.k8s_name);
  if (!step.enclosing_foreach.empty()) name += fmt::format("-{}", kElementHash);
  if (Retried(step)) name += fmt::format("-{}", kAttempt);
  return name;
}

// One entry of a parameter list: a template's input (no value) or a task's argument.
void Parameter(YAML::Emitter& out, const char* name, const std::string* value) {
  out << YAML::BeginMap;
  Key(out, "name");
  ValueScalar(out, name);
  if (value != nullptr) {
    Key(out, "value");
    out << YAML::Value;
    EmitString(out, *value);
  }
  out << YAML::EndMap;
}

// `<key>: {parameters: [...]}`: the gang's name and, in a body, the element, as `inputs` of a
// template (`gang` null) or as a task's `arguments`.
void Parameters(YAML::Emitter& out, const char* key, const std::string* gang, bool item) {
  Key(out, key);
  out << YAML::Value << YAML::BeginMap;
  Key(out, "parameters");
  out << YAML::Value << YAML::BeginSeq;
  Parameter(out, kGangParameter, gang);
  if (item) {
    const std::string element = ItemInput();
    Parameter(out, kItemParameter, gang != nullptr ? &element : nullptr);
  }
  out << YAML::EndSeq << YAML::EndMap;
}

void Template(YAML::Emitter& out, const std::string& name) {
  Key(out, "template");
  out << YAML::Value;
  EmitString(out, name);
}

}  // namespace

std::string GangInput() { return fmt::format("{{{{inputs.parameters.{}}}}}", kGangParameter); }

void EmitBoundedGangDag(YAML::Emitter& out, const ir::Step& step, const Layout& layout,
                        size_t index, bool in_body, const std::string& run_id) {
  const std::string gang = GangName(step, run_id);
  Key(out, "dag");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "tasks");
  out << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  Key(out, "name");
  ValueScalar(out, kGangTask);
  Template(out, layout.gang_name(index));
  Parameters(out, "arguments", &gang, in_body);
  Key(out, "hooks");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "exit");
  out << YAML::Value << YAML::BeginMap;
  // The hook runs when the task did not succeed: a gang that completed keeps its pods, and
  // their logs, as the workflow's own (hooks.go runOnExitNode evaluates the expression with
  // the DAG's scope, where dag.go executeDAGTask has put `tasks.<name>.status`).
  Key(out, "expression");
  out << YAML::Value;
  EmitString(out, fmt::format("tasks.{}.status != 'Succeeded'", kGangTask));
  Template(out, layout.delete_name(index));
  Parameters(out, "arguments", &gang, false);
  out << YAML::EndMap << YAML::EndMap;  // exit, hooks
  out << YAML::EndMap << YAML::EndSeq;  // the task, tasks
  out << YAML::EndMap;                  // dag
}

void EmitGangInputs(YAML::Emitter& out, bool in_body) {
  Parameters(out, "inputs", nullptr, in_body);
}

void EmitGangDelete(YAML::Emitter& out, const ir::Step& step, const std::string& name) {
  out << YAML::BeginMap;
  Key(out, "name");
  out << YAML::Value;
  EmitString(out, name);
  EmitGangInputs(out, false);
  // What kubectl needs to find the object: its kind, name and namespace (the workflow's,
  // where Argo created it).
  YAML::Emitter manifest;
  manifest << YAML::BeginMap;
  Key(manifest, "apiVersion");
  ValueScalar(manifest, step.trainjob ? k8s::kTrainerApiVersion : k8s::kJobSetApiVersion);
  Key(manifest, "kind");
  ValueScalar(manifest, step.trainjob ? "TrainJob" : "JobSet");
  Key(manifest, "metadata");
  manifest << YAML::Value << YAML::BeginMap;
  Key(manifest, "name");
  manifest << YAML::Value;
  EmitString(manifest, GangInput());
  if (!step.pod.namespace_.empty()) {
    Key(manifest, "namespace");
    manifest << YAML::Value;
    EmitString(manifest, step.pod.namespace_);
  }
  manifest << YAML::EndMap << YAML::EndMap;
  Key(out, "resource");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "action");
  ValueScalar(out, "delete");
  Key(out, "manifest");
  out << YAML::Value << YAML::Literal << manifest.c_str();
  out << YAML::EndMap;
  out << YAML::EndMap;
}

}  // namespace flowc::backends::argo
