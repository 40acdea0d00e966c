#include "compiler/validate/openapi_to_jsonschema.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/validate/json_util.h"
#include "compiler/rules/regexp.h"
#include "compiler/validate/schema_store.h"

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

}  // namespace

namespace {

void MergeShape(nlohmann::json& into, const nlohmann::json& shape) {
  if (shape.is_object()) {
    if (!into.is_object()) into = nlohmann::json::object();
    for (auto it = shape.begin(); it != shape.end(); ++it) MergeShape(into[it.key()], *it);
  } else if (shape.is_array()) {
    if (!into.is_array()) into = nlohmann::json::array();
    if (!shape.empty()) {
      if (into.empty()) into.push_back(nullptr);
      MergeShape(into[0], shape[0]);
    }
  }
}

// The one shape every item of a list shape, or every value of a mapping shape not named in
// `except`, shares.
const nlohmann::json kNoShape;

}  // namespace

namespace {

// Merges the shape of `value` into `into`, as MergeShape(into, ShapeOf(value)) would, without
// making the shape of each list item first (a 10,000-item list made 10,000 shapes).
void AddShape(nlohmann::json& into, const nlohmann::json& value) {
  if (value.is_object()) {
    if (!into.is_object()) into = nlohmann::json::object();
    for (auto it = value.begin(); it != value.end(); ++it) AddShape(into[it.key()], *it);
  } else if (value.is_array()) {
    if (!into.is_array()) into = nlohmann::json::array();
    if (into.empty()) into.push_back(nullptr);  // [null]: a list of scalars, or empty
    for (const nlohmann::json& item : value) {
      if (item.is_structured()) AddShape(into[0], item);
    }
  }
}

}  // namespace

nlohmann::json ShapeOf(const nlohmann::json& value) {
  nlohmann::json out;
  AddShape(out, value);
  return out;
}

nlohmann::json OpenApiTranslator::Definition(const std::string& name, nlohmann::json& shape) {
  if (name == "io.k8s.apimachinery.pkg.api.resource.Quantity") {
    return {{"type", nlohmann::json::array({"number", "string"})},
            {"x-flowc-pattern", kQuantityPattern}};
  }
  if (name == "io.k8s.apimachinery.pkg.util.intstr.IntOrString") return {{"type", IntOrString()}};
  if (const nlohmann::json* found = definitions_ != nullptr ? definitions_->Find(name) : nullptr) {
    return Translate(*found, shape, /*crd=*/false, /*structural=*/true, name);
  }
  return nlohmann::json::object();  // RawExtension, JSON, and anything unknown: open
}

nlohmann::json OpenApiTranslator::Translate(const nlohmann::json& original, nlohmann::json& shape,
                                            bool crd, bool structural,
                                            const std::string& definition) {
  const nlohmann::json* found = &Unshare(original);
  if (fallbacks_ != nullptr) {
    if (auto it = fallbacks_->find(found); it != fallbacks_->end()) found = &Unshare(*it->second);
  }
  const nlohmann::json& node = *found;
  if (!node.is_object()) return node;
  if (auto ref = node.find("$ref"); ref != node.end() && ref->is_string()) {
    std::string name = ref->get<std::string>();
    return Definition(name.substr(name.rfind('/') + 1), shape);
  }
  nlohmann::json out = nlohmann::json::object();
  bool int_or_string = Str(node, "format") == "int-or-string" ||
                       Bool(node, "x-kubernetes-int-or-string", false) ||
                       (node.contains("anyOf") && IsIntOrStringAnyOf(node["anyOf"]));
  for (const auto& [key, value] : node.items()) {
    if (key == "properties") {
      nlohmann::json props = nlohmann::json::object();
      nlohmann::json known = nlohmann::json::array();
      if (value.is_object()) {
        for (const auto& [name, child_schema] : value.items()) {
          const nlohmann::json& schema = Unshare(child_schema);
          known.push_back(name);
          if (!shape.is_object()) continue;
          auto present = shape.find(name);
          if (present == shape.end()) {
            // A default the API server fills in is checked as if written.
            if (!schema.is_object() || !schema.contains("default")) continue;
            present = shape.emplace(name, ShapeOf(schema["default"])).first;
          }
          nlohmann::json child = Translate(schema, *present, crd, true, "");
          if (!definition.empty() && child.is_object()) {
            auto list_type = child.find("x-flowc-builtin-list-type");
            if (list_type != child.end()) {
              if (BuiltinUniqueList(definition, name)) child["x-kubernetes-list-type"] = *list_type;
              child.erase("x-flowc-builtin-list-type");
            }
          }
          props[name] = std::move(child);
        }
      }
      out[key] = std::move(props);
      out["x-flowc-known"] = std::move(known);
    } else if (key == "patternProperties") {
      continue;  // no bundled schema has them; a user's are not checked
    } else if (key == "items") {
      if (!shape.is_array() || shape.empty()) continue;  // no items to check
      if (value.is_array()) {
        nlohmann::json items = nlohmann::json::array();
        for (const nlohmann::json& s : value)
          items.push_back(Translate(s, shape[0], crd, true, ""));
        out[key] = std::move(items);
      } else {
        out[key] = Translate(value, shape[0], crd, true, "");
      }
    } else if (key == "additionalProperties") {
      if (!value.is_object()) {
        out[key] = value;
        continue;
      }
      // One schema for every value the properties do not name: their merged shape.
      nlohmann::json merged;
      const nlohmann::json* named = node.contains("properties") ? &node["properties"] : &kNoShape;
      if (shape.is_object()) {
        for (auto it = shape.begin(); it != shape.end(); ++it) {
          if (!named->is_object() || !named->contains(it.key())) MergeShape(merged, *it);
        }
      }
      out[key] = Translate(value, merged, crd, true, "");
    } else if (key == "allOf" || key == "anyOf" || key == "oneOf") {
      if (int_or_string && key == "anyOf") continue;
      nlohmann::json list = nlohmann::json::array();
      if (value.is_array()) {
        for (const nlohmann::json& s : value) list.push_back(Translate(s, shape, crd, false, ""));
      }
      out[key] = std::move(list);
    } else if (key == "not") {
      out[key] = Translate(value, shape, crd, false, "");
    } else if (key == "required") {
      nlohmann::json required = nlohmann::json::array();
      auto props = node.find("properties");
      bool have_props = props != node.end() && props->is_object();
      if (value.is_array()) {
        for (const nlohmann::json& r : value) {
          if (!r.is_string()) continue;
          if (have_props) {
            auto p = props->find(r.get<std::string>());
            if (p != props->end() && Unshare(*p).is_object() && Unshare(*p).contains("default")) {
              continue;
            }
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
      // Applied by schema_check.cc with RE2, Go's regexp's model (compiler/rules/regexp.h), not by valijson's
      // std::regex; a pattern RE2 cannot compile is reported on the values it would apply to.
      if (value.is_string() && rules::RegexpCompiles(value.get<std::string>())) {
        out["x-flowc-pattern"] = value;
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
    nlohmann::json& known = out["x-flowc-known"];
    if (!known.is_array()) known = nlohmann::json::array();
    for (const char* key : {"apiVersion", "kind", "metadata"}) known.push_back(key);
    if (!props.contains("apiVersion")) props["apiVersion"] = {{"type", "string"}};
    if (!props.contains("kind")) props["kind"] = {{"type", "string"}};
    if (shape.is_object() && shape.contains("metadata")) {
      props["metadata"] = Definition(kObjectMeta, shape["metadata"]);
    }
  }
  if (structural && !preserve && !out.contains("additionalProperties") &&
      (node.contains("properties") || (crd && Str(node, "type") == "object"))) {
    out["x-flowc-strict"] = true;
    if (!out.contains("x-flowc-known")) out["x-flowc-known"] = nlohmann::json::array();
  }
  return out;
}

const nlohmann::json& OpenApiTranslator::Unshare(const nlohmann::json& node) const {
  const nlohmann::json* at = &node;
  // An entry never stands for itself (embed_schemas.cc), so this ends; the bound guards a
  // corrupt table all the same.
  for (int hops = 0; shared_ != nullptr && hops < 8 && at->is_object() && at->size() == 1; ++hops) {
    auto index = at->find("x-flowc-shared");
    if (index == at->end() || !index->is_number_unsigned() || *index >= shared_->size()) break;
    at = &(*shared_)[index->get<size_t>()];
  }
  return *at;
}

const nlohmann::json* OpenApiTranslator::At(const nlohmann::json& root,
                                            const std::string& pointer) const {
  std::vector<std::string> tokens;
  for (nlohmann::json::json_pointer p(pointer); !p.empty(); p.pop_back())
    tokens.push_back(p.back());
  const nlohmann::json* at = &Unshare(root);
  for (auto token = tokens.rbegin(); token != tokens.rend(); ++token) {
    auto child = at->is_object() ? at->find(*token) : at->end();
    if (child == at->end()) return nullptr;
    at = &Unshare(*child);
  }
  return at;
}

Fallbacks OpenApiTranslator::FindFallbacks(const nlohmann::json& schema,
                                           const std::string& kind) const {
  // Argo's CRDs leave an inline template (a DAG task's or a step's) open; Argo reads it as a
  // template (pkg/apis/workflow/v1alpha1/workflow_types.go: DAGTask.Inline and
  // WorkflowStep.Inline are *Template), so it is checked as the template schema that holds it:
  // in spec.templates, in templateDefaults, and wherever else the CRD has a template. Found by a
  // walk rather than by fixed paths, so that a schema shared between two templates
  // (embed_schemas.cc) is read as each would be.
  Fallbacks fallbacks;
  if (kind != "Workflow" && kind != "WorkflowTemplate" && kind != "ClusterWorkflowTemplate" &&
      kind != "CronWorkflow") {
    return fallbacks;
  }
  auto open = [](const nlohmann::json& s) {
    return s.is_object() &&
           (!s.contains("properties") || Bool(s, "x-kubernetes-preserve-unknown-fields", false));
  };
  std::unordered_set<const nlohmann::json*> seen;
  std::vector<const nlohmann::json*> stack = {&Unshare(schema)};
  while (!stack.empty()) {
    const nlohmann::json* node = stack.back();
    stack.pop_back();
    if (!node->is_structured() || !seen.insert(node).second) continue;
    for (const nlohmann::json& child : *node) stack.push_back(&Unshare(child));
    auto props = node->is_object() ? node->find("properties") : node->end();
    if (props == node->end() || !props->is_object() ||
        (!props->contains("dag") && !props->contains("steps"))) {
      continue;
    }
    for (const char* inline_path : {"/properties/dag/properties/tasks/items/properties/inline",
                                    "/properties/steps/items/items/properties/inline"}) {
      const nlohmann::json* p = At(*node, inline_path);
      if (p != nullptr && open(*p)) fallbacks[p] = node;
    }
  }
  return fallbacks;
}

nlohmann::json OpenApiTranslator::CrdRoot(const nlohmann::json& schema, const std::string& kind,
                                          nlohmann::json& shape) {
  if (fallbacks_ == nullptr) {
    found_fallbacks_ = FindFallbacks(schema, kind);
    fallbacks_ = &found_fallbacks_;
  }
  nlohmann::json root = Translate(schema, shape, /*crd=*/true, /*structural=*/true, "");
  if (!root.is_object()) root = nlohmann::json::object();
  nlohmann::json& props = root["properties"];
  if (!props.is_object()) props = nlohmann::json::object();
  nlohmann::json& known = root["x-flowc-known"];
  if (!known.is_array()) known = nlohmann::json::array();
  // Every object carries apiVersion, kind and metadata, whether or not its CRD lists them.
  for (const char* key : {"apiVersion", "kind", "metadata"}) {
    if (std::find(known.begin(), known.end(), key) == known.end()) known.push_back(key);
  }
  for (const char* key : {"apiVersion", "kind"}) {
    if (!props.contains(key)) props[key] = {{"type", "string"}};
  }
  // The root metadata is ObjectMeta, whatever the CRD says of it (most say `type: object`).
  auto md = schema.find("properties");
  bool listed = md != schema.end() && md->is_object() && md->contains("metadata") &&
                Unshare((*md)["metadata"]).is_object() &&
                Unshare((*md)["metadata"]).contains("properties");
  if (!listed && shape.is_object() && shape.contains("metadata")) {
    props["metadata"] = Definition(kObjectMeta, shape["metadata"]);
  }
  return root;
}

nlohmann::json OpenApiTranslator::DefinitionRoot(const std::string& name, nlohmann::json& shape) {
  return Definition(name, shape);
}

}  // namespace flowc::validate
