#include "compiler/validate/schema_index.h"

#include <string_view>
#include <utility>

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

// "v1beta2" -> (major 1, beta, minor 2), as apimachinery's parseKubeVersion reads
// ^v([\d]+)(?:(alpha|beta)([\d]+))?$ (k8s.io/apimachinery/pkg/version/helpers.go).
struct KubeVersion {
  long major = 0;
  int type = 2;  // 0 alpha, 1 beta, 2 GA: the bigger, the higher
  long minor = 0;
};

bool ParseKubeVersion(const std::string& v, KubeVersion* out) {
  auto digits = [&](size_t* at, long* value) {
    size_t start = *at;
    *value = 0;
    while (*at < v.size() && v[*at] >= '0' && v[*at] <= '9' && *at - start < 9) {
      *value = *value * 10 + (v[(*at)++] - '0');
    }
    return *at > start && (*at == v.size() || v[*at] < '0' || v[*at] > '9');
  };
  size_t at = 1;
  if (v.empty() || v[0] != 'v' || !digits(&at, &out->major)) return false;
  if (at == v.size()) return true;
  for (auto [word, type] : {std::pair<const char*, int>{"alpha", 0}, {"beta", 1}}) {
    std::string_view w(word);
    if (v.compare(at, w.size(), w) == 0) {
      at += w.size();
      out->type = type;
      return digits(&at, &out->minor) && at == v.size();
    }
  }
  return false;
}

// The warning the API server sends for a deprecated CRD version without a deprecationWarning:
// defaultDeprecationWarning of k8s.io/apiextensions-apiserver/pkg/apiserver/
// customresource_handler.go ("<group>/<version> <Kind> is deprecated", then "; use
// <group>/<newest served, not deprecated, newer version> <Kind>" when there is one).
std::string DefaultDeprecationWarning(const std::string& group, const std::string& version,
                                      const std::string& kind, const nlohmann::json& versions) {
  std::string msg = group + "/" + version + " " + kind + " is deprecated";
  std::string newest;
  for (const nlohmann::json& v : versions) {
    std::string name = StringAt(v, "name");
    if (!Bool(v, "served", false) || Bool(v, "deprecated", false) ||
        CompareKubeAwareVersions(version, name) >= 0) {
      continue;
    }
    if (newest.empty() || CompareKubeAwareVersions(name, newest) > 0) newest = name;
  }
  if (!newest.empty()) msg += "; use " + group + "/" + newest + " " + kind;
  return msg;
}

}  // namespace

int CompareKubeAwareVersions(const std::string& a, const std::string& b) {
  if (a == b) return 0;
  KubeVersion va, vb;
  bool ok_a = ParseKubeVersion(a, &va), ok_b = ParseKubeVersion(b, &vb);
  if (!ok_a && !ok_b) return b.compare(a) < 0 ? -1 : 1;  // strings.Compare(v2, v1)
  if (ok_a != ok_b) return ok_a ? 1 : -1;
  if (va.type != vb.type) return va.type - vb.type;
  if (va.major != vb.major) return va.major < vb.major ? -1 : 1;
  return va.minor == vb.minor ? 0 : (va.minor < vb.minor ? -1 : 1);
}

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
      KindRow row{group + "/" + name, kind, scope, name, true, ""};
      // customresource_handler.go: a deprecated version's deprecationWarning when it is set,
      // else the default text.
      if (Bool(v, "deprecated", false)) {
        auto text = v.find("deprecationWarning");
        row.deprecation = text != v.end() && text->is_string()
                              ? text->get<std::string>()
                              : DefaultDeprecationWarning(group, name, kind, *versions);
      }
      rows.push_back(std::move(row));
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
      rows.push_back(KindRow{g.empty() ? v : g + "/" + v, k, scope, name, false, ""});
    }
  }
  return rows;
}

}  // namespace flowc::validate
