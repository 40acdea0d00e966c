#include "compiler/validate/schema_index.h"

#include "compiler/validate/json_util.h"

namespace flowc::validate {
namespace {

// Definitions with a kind that no one writes in a manifest.
bool SkippedKind(const std::string& kind) {
  static const char* const kSkipped[] = {"WatchEvent",     "DeleteOptions", "Status",
                                         "APIVersions",    "APIGroup",      "APIGroupList",
                                         "APIResourceList"};
  if (kind.size() > 4 && kind.compare(kind.size() - 4, 4, "List") == 0) return true;
  for (const char* s : kSkipped) {
    if (kind == s) return true;
  }
  return false;
}

std::string StringAt(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

NamespacedKinds ReadNamespacedKinds(const nlohmann::json& list) {
  NamespacedKinds out;
  if (!list.is_array()) return out;
  for (const nlohmann::json& row : list) {
    out.emplace(StringAt(row, "group"), StringAt(row, "version"), StringAt(row, "kind"));
  }
  return out;
}

bool IsCrd(const nlohmann::json& doc) {
  return doc.is_object() && StringAt(doc, "kind") == "CustomResourceDefinition";
}

std::vector<KindRow> KindsOf(const nlohmann::json& doc, const NamespacedKinds& namespaced) {
  std::vector<KindRow> rows;
  if (IsCrd(doc)) {
    auto found = doc.find("spec");
    if (found == doc.end() || !found->is_object()) return rows;
    const nlohmann::json& spec = *found;
    std::string group = StringAt(spec, "group");
    auto names = spec.find("names");
    std::string kind = names != spec.end() ? StringAt(*names, "kind") : "";
    std::string scope = StringAt(spec, "scope");
    if (scope.empty()) scope = "Namespaced";
    auto versions = spec.find("versions");
    if (group.empty() || kind.empty() || versions == spec.end() || !versions->is_array())
      return rows;
    for (const nlohmann::json& v : *versions) {
      if (!v.is_object() || !Bool(v, "served", true)) continue;
      const nlohmann::json* schema = nullptr;
      auto s = v.find("schema");
      if (s != v.end() && s->is_object() && s->contains("openAPIV3Schema")) {
        schema = &(*s)["openAPIV3Schema"];
      }
      std::string name = StringAt(v, "name");
      if (schema == nullptr || !schema->is_object() || name.empty()) continue;
      rows.push_back(KindRow{group + "/" + name, kind, scope, name, true});
    }
    return rows;
  }
  if (!doc.is_object() || !doc.contains("definitions") || !doc["definitions"].is_object()) {
    return rows;
  }
  for (const auto& [name, schema] : doc["definitions"].items()) {
    if (!schema.is_object()) continue;
    auto gvks = schema.find("x-kubernetes-group-version-kind");
    if (gvks == schema.end() || !gvks->is_array()) continue;
    for (const nlohmann::json& gvk : *gvks) {
      std::string g = StringAt(gvk, "group"), v = StringAt(gvk, "version"),
                  k = StringAt(gvk, "kind");
      if (k.empty() || v.empty() || SkippedKind(k)) continue;
      std::string scope = namespaced.count({g, v, k}) ? "Namespaced" : "Cluster";
      rows.push_back(KindRow{g.empty() ? v : g + "/" + v, k, scope, name, false});
    }
  }
  return rows;
}

}  // namespace flowc::validate
