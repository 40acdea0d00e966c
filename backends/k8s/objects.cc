#include "backends/k8s/objects.h"

#include <string_view>

#include "backends/k8s/pod_yaml.h"
#include "backends/k8s/trainjob.h"

namespace flowc::backends::k8s {
namespace {

// `requests: [<name>]`, the list every constraint and config names.
void RequestNames(YAML::Emitter& out, const std::string& request) {
  Key(out, "requests");
  out << YAML::Value << YAML::Flow << YAML::BeginSeq;
  EmitFlowString(out, request);
  out << YAML::EndSeq;
}

// resource.k8s.io/v1 ResourceClaimTemplate's `spec`, a ResourceClaimTemplateSpec
// whose own `spec` is the claim's: `spec: {spec: {devices: ...}}`.
void EmitClaimTemplateSpec(YAML::Emitter& out, const ir::ResourceClaimTemplate& t) {
  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "devices");
  out << YAML::Value << YAML::BeginMap;

  Key(out, "requests");
  out << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  StringField(out, "name", t.request_name);
  Key(out, "exactly");
  out << YAML::Value << YAML::BeginMap;
  StringField(out, "deviceClassName", t.device_class);
  StringField(out, "allocationMode", t.allocation_mode);
  if (t.allocation_mode == "ExactCount") {
    Key(out, "count");
    out << YAML::Value << t.count;
  }
  if (!t.selectors.empty()) {
    Key(out, "selectors");
    out << YAML::Value << YAML::BeginSeq;
    for (const std::string& expression : t.selectors) {
      out << YAML::BeginMap;
      Key(out, "cel");
      out << YAML::Value << YAML::BeginMap;
      StringField(out, "expression", expression);
      out << YAML::EndMap << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;  // exactly
  out << YAML::EndMap << YAML::EndSeq;

  if (!t.match_attribute.empty()) {
    Key(out, "constraints");
    out << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    RequestNames(out, t.request_name);
    StringField(out, "matchAttribute", t.match_attribute);
    out << YAML::EndMap << YAML::EndSeq;
  }
  if (!t.configs.empty()) {
    Key(out, "config");
    out << YAML::Value << YAML::BeginSeq;
    for (const ir::OpaqueDeviceConfig& config : t.configs) {
      out << YAML::BeginMap;
      RequestNames(out, t.request_name);
      Key(out, "opaque");
      out << YAML::Value << YAML::BeginMap;
      StringField(out, "driver", config.driver);
      Key(out, "parameters");
      out << YAML::Value << YAML::BeginMap;
      StringField(out, "apiVersion", config.api_version);
      StringField(out, "kind", config.kind);
      for (const auto& [key, value] : config.fields) out << YAML::Key << key << YAML::Value << value;
      out << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;  // devices
  out << YAML::EndMap;  // spec (the claim's)
  out << YAML::EndMap;  // spec
}

void EmitConfigMapContent(YAML::Emitter& out, const ir::ConfigMap& map) {
  Key(out, "immutable");
  out << YAML::Value << true;
  bool text = false, binary = false;
  for (const ir::ConfigMapFile& f : map.files) (f.binary ? binary : text) = true;
  if (text) {
    Key(out, "data");
    out << YAML::Value << YAML::BeginMap;
    for (const ir::ConfigMapFile& f : map.files) {
      if (!f.binary) StringField(out, f.key, f.content);
    }
    out << YAML::EndMap;
  }
  if (binary) {
    Key(out, "binaryData");
    out << YAML::Value << YAML::BeginMap;
    for (const ir::ConfigMapFile& f : map.files) {
      if (!f.binary) continue;
      // A plain base64 string, never a `!!binary` node: kubectl reads YAML
      // through sigs.k8s.io/yaml, whose go-yaml decodes `!!binary` into raw
      // bytes before the conversion to JSON, where binaryData must be base64
      // (kubernetes-sigs/yaml README.md, "Caveat #1").
      StringField(out, f.key,
                  YAML::EncodeBase64(reinterpret_cast<const unsigned char*>(f.content.data()),
                                     f.content.size()));
    }
    out << YAML::EndMap;
  }
}

// apiVersion, kind and metadata: all an object's YAML holds besides its
// content. The map stays open.
void EmitObjectHead(YAML::Emitter& out, const ir::Object& object) {
  const bool claim_template = std::holds_alternative<ir::ResourceClaimTemplate>(object.spec);
  const bool runtime = std::holds_alternative<ir::TrainingRuntime>(object.spec);
  BeginObject(out, claim_template ? kResourceApiVersion : runtime ? kTrainerApiVersion : "v1",
              object.kind());
  Key(out, "metadata");
  out << YAML::Value << YAML::BeginMap;
  StringField(out, "name", object.name);
  if (!object.namespace_.empty()) StringField(out, "namespace", object.namespace_);
  if (!object.labels.empty()) {
    Key(out, "labels");
    out << YAML::Value << YAML::BeginMap;
    for (const auto& [key, value] : *object.labels) StringField(out, key, value);
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

// The rest of the object's map: its content, the same for every object of
// the same content (compiler/ir/content_key.h) whatever its name.
void EmitObjectContent(YAML::Emitter& out, const ir::Object& object) {
  if (const auto* claim_template = std::get_if<ir::ResourceClaimTemplate>(&object.spec)) {
    EmitClaimTemplateSpec(out, *claim_template);
  } else if (const auto* runtime = std::get_if<ir::TrainingRuntime>(&object.spec)) {
    EmitTrainingRuntimeSpec(out, *runtime);
  } else {
    EmitConfigMapContent(out, std::get<ir::ConfigMap>(object.spec));
  }
}

}  // namespace

void EmitObject(YAML::Emitter& out, const ir::Object& object) {
  EmitObjectHead(out, object);
  EmitObjectContent(out, object);
  out << YAML::EndMap;
}

void EmitObjectDocuments(YAML::Emitter& out, const ir::Flow& flow) {
  for (const ir::Object& object : flow.objects) {
    EmitObject(out, object);
    out << YAML::BeginDoc;
  }
}

std::string ObjectResourceName(const ir::Object& object) {
  const char* resource = std::holds_alternative<ir::ResourceClaimTemplate>(object.spec)
                             ? "resourceclaimtemplate.resource.k8s.io"
                         : std::holds_alternative<ir::TrainingRuntime>(object.spec)
                             ? "trainingruntime.trainer.kubeflow.org"
                             : "configmap";
  return std::string(resource) + "/" + object.name;
}

std::string ObjectYaml(const ir::Object& object) {
  YAML::Emitter out;
  EmitObject(out, object);
  return std::string(out.c_str()) + "\n";
}

// Each part is a top-level block map of its own: yaml-cpp writes a key of
// one at column 0 after a newline, as it does in the whole object's map, so
// the two texts joined are ObjectYaml's (tests/unit/content_key_test.cc).
std::string ObjectHeadYaml(const ir::Object& object) {
  YAML::Emitter out;
  EmitObjectHead(out, object);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::string ObjectContentYaml(const ir::Object& object) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  EmitObjectContent(out, object);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace flowc::backends::k8s
