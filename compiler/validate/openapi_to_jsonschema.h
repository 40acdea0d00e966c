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
// Built-in definitions ($ref) are inlined where a document reaches them, and so are a bundled
// CRD's shared subtrees ({"x-flowc-shared": N}, embed_schemas.cc).
#ifndef FLOWC_VALIDATE_OPENAPI_TO_JSONSCHEMA_H_
#define FLOWC_VALIDATE_OPENAPI_TO_JSONSCHEMA_H_

#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

namespace flowc::validate {

class Definitions;  // schema_store.h

// The open nodes of a CRD schema that are checked as another node of it (Argo's inline
// templates, checked as the template that holds them): found once per schema
// (OpenApiTranslator::FindFallbacks) and kept with it (schema_store.h, KindSchema).
using Fallbacks = std::unordered_map<const nlohmann::json*, const nlohmann::json*>;

inline constexpr const char* kObjectMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
inline constexpr const char* kQuantityPattern =
    "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+("
    "\\.[0-9]*)?)|(\\.[0-9]+))))?$";

// The shape of a document: its mappings and lists, without the scalars, every list's items
// merged into one. The translator translates only the parts of a schema a shape reaches: the
// Argo CRDs hold the whole pod spec in every template type, and a document uses a twentieth of
// it; translating and parsing all of it for valijson cost four times the checks themselves.
nlohmann::json ShapeOf(const nlohmann::json& value);

class OpenApiTranslator {
 public:
  // `definitions`: the Kubernetes OpenAPI definitions (may be null when none are loaded).
  // `shared`: a bundled CRD's "x-flowc-shared" list (null for any other schema).
  // `fallbacks`: the CRD's, from FindFallbacks; null: CrdRoot finds them itself.
  explicit OpenApiTranslator(Definitions* definitions, const nlohmann::json* shared = nullptr,
                             const Fallbacks* fallbacks = nullptr)
      : definitions_(definitions), shared_(shared), fallbacks_(fallbacks) {}

  // The fallbacks of a CRD version's openAPIV3Schema for a document of `kind`.
  Fallbacks FindFallbacks(const nlohmann::json& schema, const std::string& kind) const;

  // A CRD version's openAPIV3Schema, as the root of a document of `kind` with `shape`: metadata
  // is checked against ObjectMeta, and Argo's inline templates against the template schema.
  // Defaults the schema gives absent fields are added to `shape`, which Prepare then fills in.
  nlohmann::json CrdRoot(const nlohmann::json& schema, const std::string& kind,
                         nlohmann::json& shape);

  // A built-in kind's definition, as a root.
  nlohmann::json DefinitionRoot(const std::string& name, nlohmann::json& shape);

 private:
  // `definition`: the built-in definition `node` belongs to, for its unique lists.
  nlohmann::json Translate(const nlohmann::json& node, nlohmann::json& shape, bool crd,
                           bool structural, const std::string& definition);
  nlohmann::json Definition(const std::string& name, nlohmann::json& shape);
  // `node`, or the shared subtree it stands for.
  const nlohmann::json& Unshare(const nlohmann::json& node) const;
  // The node at JSON pointer `pointer` from `root`, through shared subtrees; null if none.
  const nlohmann::json* At(const nlohmann::json& root, const std::string& pointer) const;

  Definitions* definitions_;
  const nlohmann::json* shared_;
  const Fallbacks* fallbacks_;
  Fallbacks found_fallbacks_;  // CrdRoot's, when none were given
};

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_OPENAPI_TO_JSONSCHEMA_H_
