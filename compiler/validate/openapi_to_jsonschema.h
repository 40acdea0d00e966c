// The Kubernetes flavour of OpenAPI v3 (a CRD's openAPIV3Schema) and v2 (the built-in types'
// definitions) turned into JSON Schema draft 4 that valijson checks, with the rules the API
// server adds to a schema's words kept as markers for schema_check.cc.
//
// What the API server does that plain JSON Schema does not, and where it goes:
// - Strict field validation: an object whose schema lists properties (or a CRD object with none
//   listed) rejects any other field, unless x-kubernetes-preserve-unknown-fields. Marked
//   "x-flowc-strict"; schema_check.cc reports each unknown field with a did-you-mean.
// - int-or-string (the format, the extension, and CRDs' anyOf of integer and string) is the
//   type [integer, string]; a quantity's pattern still applies to its string form.
// - x-kubernetes-embedded-resource objects get apiVersion, kind and an ObjectMeta metadata.
// - A `required` field with a `default` is not required: the API server defaults it first.
// - `format` goes to "x-flowc-format" (int32, int64, byte, date-time are checked there;
//   valijson knows other formats than Kubernetes').
// - list-type map/set, and CEL rules, stay as their x-kubernetes-* keywords for schema_check.cc;
//   for built-in types list-type is kept only on the lists whose duplicates the API server's
//   own validation rejects (containers, volumes, volumeMounts, resourceClaims).
// Built-in definitions become "#/definitions/NAME" of the translated root, each translated once.
#ifndef FLOWC_VALIDATE_OPENAPI_TO_JSONSCHEMA_H_
#define FLOWC_VALIDATE_OPENAPI_TO_JSONSCHEMA_H_

#include <nlohmann/json.hpp>
#include <string>
#include <unordered_set>

namespace flowc::validate {

inline constexpr const char* kObjectMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
inline constexpr const char* kQuantityPattern =
    "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+("
    "\\.[0-9]*)?)|(\\.[0-9]+))))?$";

class OpenApiTranslator {
 public:
  // `definitions`: the Kubernetes OpenAPI definitions (may be null when none are loaded).
  explicit OpenApiTranslator(const nlohmann::json* definitions) : definitions_(definitions) {}

  // A CRD version's openAPIV3Schema, as the root of a document of `kind`: metadata is checked
  // against ObjectMeta, and Argo's inline templates against the template schema.
  nlohmann::json CrdRoot(const nlohmann::json& schema, const std::string& kind);

  // A built-in kind's definition, as a root.
  nlohmann::json DefinitionRoot(const std::string& name);

 private:
  nlohmann::json Translate(const nlohmann::json& node, bool crd, bool structural);
  std::string Ref(const std::string& name);  // translates `name` into defs_ once
  void ApplyFallbacks(nlohmann::json& root, const std::string& kind);
  nlohmann::json Finish(nlohmann::json root);

  const nlohmann::json* definitions_;
  nlohmann::json defs_ = nlohmann::json::object();
  std::unordered_set<std::string> started_;
};

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_OPENAPI_TO_JSONSCHEMA_H_
