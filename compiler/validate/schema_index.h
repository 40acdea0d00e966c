// Which apiVersion and kind a schema document serves: a CustomResourceDefinition serves each of
// its versions that has an openAPIV3Schema; the Kubernetes OpenAPI definitions serve every
// definition that names its group, version and kind (x-kubernetes-group-version-kind).
//
// Used twice: at build time by embed_schemas.cc, to index the bundled schemas without reading
// them at run time, and at run time by schema_store.cc for the files of --schemas.
#ifndef FLOWC_VALIDATE_SCHEMA_INDEX_H_
#define FLOWC_VALIDATE_SCHEMA_INDEX_H_

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace flowc::validate {

struct KindRow {
  std::string api_version;  // "argoproj.io/v1alpha1", "v1"
  std::string kind;
  std::string scope;     // "Namespaced" or "Cluster"
  std::string selector;  // a CRD's version name, or a definition's name
  bool is_crd = true;
  // What the API server warns when an object of a deprecated CRD version is written (the
  // version's deprecationWarning, or its default text); empty for a version not deprecated.
  std::string deprecation;
};

// (group, version, kind) of the built-in kinds created under /namespaces/{namespace}/.
using NamespacedKinds = std::set<std::tuple<std::string, std::string, std::string>>;

NamespacedKinds ReadNamespacedKinds(const nlohmann::json& list);

bool IsCrd(const nlohmann::json& doc);

// apimachinery's CompareKubeAwareVersionStrings: GA > beta > alpha, then the major, then the
// minor number (v2 > v1 > v1beta2 > v1beta1 > v1alpha1); names of another form sort below.
// Negative when `a` sorts below `b`, 0 when equal.
int CompareKubeAwareVersions(const std::string& a, const std::string& b);

// The rows `doc` serves; none for a document that is neither a CRD nor OpenAPI definitions.
std::vector<KindRow> KindsOf(const nlohmann::json& doc, const NamespacedKinds& namespaced);

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_SCHEMA_INDEX_H_
