#include "compiler/validate/openapi_to_jsonschema.h"

#include <regex>

#include "compiler/validate/json_util.h"

namespace flowc::validate {
namespace {

// The lists of built-in types whose duplicates the API server's validation rejects
// (kubernetes pkg/apis/core/validation/validation.go: validateContainers, validateVolumes,
// validateVolumeMounts, validatePodResourceClaims report "Duplicate value"). Elsewhere a
// built-in list-type only guides server-side apply (duplicate env names are a warning).
bool BuiltinUniqueList(const std::string& definition, const std::string& property) {
  if (definition == "io.k8s.api.core.v1.PodSpec") {
    return property == "containers" || property == "initContainers" ||
           property == "ephemeralContainers" || property == "volumes" ||
           property == "resourceClaims";
  }
  if (definition == "io.k8s.api.core.v1.Container" ||
      definition == "io.k8s.api.core.v1.EphemeralContainer") {
    return property == "volumeMounts";
  }
  return false;
}

bool IsIntOrStringAnyOf(const nlohmann::json& any_of) {
  if (!any_of.is_array() || any_of.size() != 2) return false;
  bool integer = false, string = false;
  for (const nlohmann::json& s : any_of) {
    if (!s.is_object() || s.size() != 1 || !s.contains("type")) return false;
    integer |= s["type"] == "integer";
    string |= s["type"] == "string";
  }
  return integer && string;
}

nlohmann::json IntOrString() { return nlohmann::json::array({"integer", "string"}); }

// A pattern std::regex (valijson's engine) cannot compile is checked by no one silently:
// schema_check.cc reports it on the values it would apply to.
bool CompilesAsEcmaScript(const std::string& pattern) {
  try {
    std::regex re(pattern);
    return true;
  } catch (const std::regex_error&) {
    return false;
  }
}

}  // namespace

std::string OpenApiTranslator::Ref(const std::string& name) {
  std::string ref = "#/definitions/" + name;
  if (!started_.insert(name).second) return ref;
  nlohmann::json out;
  if (name == "io.k8s.apimachinery.pkg.api.resource.Quantity") {
    out = {{"type", nlohmann::json::array({"number", "string"})}, {"pattern", kQuantityPattern}};
  } else if (name == "io.k8s.apimachinery.pkg.util.intstr.IntOrString") {
    out = {{"type", IntOrString()}};
  } else if (definitions_ != nullptr && definitions_->contains(name)) {
    out = Translate((*definitions_)[name], /*crd=*/false, /*structural=*/true);
    // Built-in list-types only where duplicates are rejected (BuiltinUniqueList).
    if (out.contains("properties")) {
      for (auto& [property, schema] : out["properties"].items()) {
        if (!schema.is_object()) continue;
        auto it = schema.find("x-flowc-builtin-list-type");
        if (it == schema.end()) continue;
        if (BuiltinUniqueList(name, property)) schema["x-kubernetes-list-type"] = *it;
        schema.erase("x-flowc-builtin-list-type");
      }
    }
  } else {
    out = nlohmann::json::object();  // RawExtension, JSON, and anything unknown: open
  }
  defs_[name] = std::move(out);
  return ref;
}

nlohmann::json OpenApiTranslator::Translate(const nlohmann::json& node, bool crd, bool structural) {
  if (!node.is_object()) return node;
  if (auto ref = node.find("$ref"); ref != node.end() && ref->is_string()) {
    std::string name = ref->get<std::string>();
    name = name.substr(name.rfind('/') + 1);
    return {{"$ref", Ref(name)}};
  }
  nlohmann::json out = nlohmann::json::object();
  bool int_or_string = Str(node, "format") == "int-or-string" ||
                       Bool(node, "x-kubernetes-int-or-string", false) ||
                       (node.contains("anyOf") && IsIntOrStringAnyOf(node["anyOf"]));
  for (const auto& [key, value] : node.items()) {
    if (key == "properties" || key == "patternProperties") {
      nlohmann::json props = nlohmann::json::object();
      if (value.is_object()) {
        for (const auto& [name, schema] : value.items()) props[name] = Translate(schema, crd, true);
      }
      out[key] = std::move(props);
    } else if (key == "items") {
      if (value.is_array()) {
        nlohmann::json items = nlohmann::json::array();
        for (const nlohmann::json& s : value) items.push_back(Translate(s, crd, true));
        out[key] = std::move(items);
      } else {
        out[key] = Translate(value, crd, true);
      }
    } else if (key == "additionalProperties") {
      out[key] = value.is_object() ? Translate(value, crd, true) : value;
    } else if (key == "allOf" || key == "anyOf" || key == "oneOf") {
      if (int_or_string && key == "anyOf") continue;
      nlohmann::json list = nlohmann::json::array();
      if (value.is_array()) {
        for (const nlohmann::json& s : value) list.push_back(Translate(s, crd, false));
      }
      out[key] = std::move(list);
    } else if (key == "not") {
      out[key] = Translate(value, crd, false);
    } else if (key == "required") {
      nlohmann::json required = nlohmann::json::array();
      auto props = node.find("properties");
      bool have_props = props != node.end() && props->is_object();
      if (value.is_array()) {
        for (const nlohmann::json& r : value) {
          if (!r.is_string()) continue;
          if (have_props) {
            auto p = props->find(r.get<std::string>());
            if (p != props->end() && p->is_object() && p->contains("default")) continue;
          }
          required.push_back(r);
        }
      }
      if (!required.empty()) out[key] = std::move(required);
    } else if (key == "format") {
      if (value.is_string() && value != "int-or-string") out["x-flowc-format"] = value;
    } else if (key == "type") {
      if (!int_or_string) out[key] = value;
    } else if (key == "pattern") {
      if (value.is_string() && CompilesAsEcmaScript(value.get<std::string>())) {
        out[key] = value;
      } else {
        out["x-flowc-unsupported-pattern"] = value;
      }
    } else if (key == "x-kubernetes-list-type" && !crd) {
      out["x-flowc-builtin-list-type"] = value;
    } else if (key == "default") {
      out["x-flowc-default"] = value;  // schema_check.cc defaults as the API server does
    } else if (key == "example" || key == "description" ||
               key == "x-kubernetes-group-version-kind" || key == "x-kubernetes-patch-strategy" ||
               key == "x-kubernetes-patch-merge-key" || key == "x-kubernetes-map-type" ||
               key == "x-kubernetes-unions" || key == "nullable" || key == "title" ||
               key == "exclusiveMinimum" || key == "exclusiveMaximum") {
      continue;
    } else {
      out[key] = value;
    }
  }
  // OpenAPI v3.0's exclusiveMinimum/Maximum are booleans beside minimum/maximum: draft 4's
  // form, which valijson's draft 4 parser reads.
  for (const char* key : {"exclusiveMinimum", "exclusiveMaximum"}) {
    if (node.contains(key) && node[key].is_boolean()) out[key] = node[key];
  }
  if (int_or_string) out["type"] = IntOrString();
  if (Bool(node, "nullable", false) && out.contains("type") && out["type"].is_string()) {
    out["type"] = nlohmann::json::array({out["type"], "null"});
  }
  bool preserve = Bool(node, "x-kubernetes-preserve-unknown-fields", false);
  if (Bool(node, "x-kubernetes-embedded-resource", false)) {
    nlohmann::json& props = out["properties"];
    if (!props.is_object()) props = nlohmann::json::object();
    if (!props.contains("apiVersion")) props["apiVersion"] = {{"type", "string"}};
    if (!props.contains("kind")) props["kind"] = {{"type", "string"}};
    props["metadata"] = {{"$ref", Ref(kObjectMeta)}};
  }
  if (structural && !preserve && !out.contains("additionalProperties") &&
      (out.contains("properties") || (crd && Str(out, "type") == "object"))) {
    out["x-flowc-strict"] = true;
  }
  return out;
}

void OpenApiTranslator::ApplyFallbacks(nlohmann::json& root, const std::string& kind) {
  // Argo's CRDs leave an inline template (a DAG task's or a step's) open; Argo reads it as a
  // template (workflow/v1alpha1 DAGTask.Inline *Template), so it is checked as one.
  std::string base;
  if (kind == "Workflow" || kind == "WorkflowTemplate" || kind == "ClusterWorkflowTemplate") {
    base = "/properties/spec";
  } else if (kind == "CronWorkflow") {
    base = "/properties/spec/properties/workflowSpec";
  } else {
    return;
  }
  std::string templates = base + "/properties/templates/items";
  nlohmann::json::json_pointer tp(templates);
  if (!root.contains(tp)) return;
  auto open = [](const nlohmann::json& s) {
    return s.is_object() &&
           (!s.contains("properties") || Bool(s, "x-kubernetes-preserve-unknown-fields", false));
  };
  for (const char* inline_path : {"/properties/dag/properties/tasks/items/properties/inline",
                                  "/properties/steps/items/items/properties/inline"}) {
    nlohmann::json::json_pointer p(templates + inline_path);
    if (root.contains(p) && open(root[p])) root[p] = {{"$ref", "#" + templates}};
  }
}

nlohmann::json OpenApiTranslator::Finish(nlohmann::json root) {
  root["definitions"] = defs_;
  return root;
}

nlohmann::json OpenApiTranslator::CrdRoot(const nlohmann::json& schema, const std::string& kind) {
  nlohmann::json root = Translate(schema, /*crd=*/true, /*structural=*/true);
  if (!root.is_object()) root = nlohmann::json::object();
  nlohmann::json& props = root["properties"];
  if (!props.is_object()) props = nlohmann::json::object();
  // Every object carries apiVersion and kind, whether or not its CRD lists them.
  for (const char* key : {"apiVersion", "kind"}) {
    if (!props.contains(key)) props[key] = {{"type", "string"}};
  }
  const nlohmann::json md = props.value("metadata", nlohmann::json::object());
  if (!md.is_object() || !md.contains("properties"))
    props["metadata"] = {{"$ref", Ref(kObjectMeta)}};
  ApplyFallbacks(root, kind);
  return Finish(std::move(root));
}

nlohmann::json OpenApiTranslator::DefinitionRoot(const std::string& name) {
  return Finish({{"$ref", Ref(name)}});
}

}  // namespace flowc::validate
