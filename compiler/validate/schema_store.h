// The schemas `flowc validate` knows: the bundled ones (embedded.h), chosen by version, and
// those of --schemas directories, which add kinds or replace bundled ones. A bundled file is
// decompressed and parsed the first time a document needs it, and kept for the rest of the run.
// Find and Preload may be called from several threads at once (the command checks files in
// parallel); AddDirectory must come before them.
#ifndef FLOWC_VALIDATE_SCHEMA_STORE_H_
#define FLOWC_VALIDATE_SCHEMA_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/validate/openapi_to_jsonschema.h"

namespace flowc::validate {

// The Kubernetes OpenAPI definitions, each kept as its JSON text (embed_schemas.cc) and parsed
// the first time a schema reaches it: a run needs ObjectMeta and what it refers to, and a
// built-in kind's own, a few dozen of the 700. Find may be called from several threads.
class Definitions {
 public:
  // `texts`: definition name -> its schema as JSON text.
  void Add(nlohmann::json texts);
  // The definition `name`, or null when there is none.
  const nlohmann::json* Find(const std::string& name);

 private:
  std::mutex mutex_;
  nlohmann::json texts_ = nlohmann::json::object();
  std::map<std::string, nlohmann::json, std::less<>> parsed_;
};

// A kind's schema as upstream wrote it; schema_check.cc translates the part a document uses.
struct KindSchema {
  std::string api_version;
  std::string kind;
  std::string scope;                        // "Namespaced" or "Cluster"
  std::string source;                       // "argo-workflows@v4.1.2", or the --schemas file
  const nlohmann::json* openapi = nullptr;  // a CRD's openAPIV3Schema; null for a built-in kind
  const nlohmann::json* shared = nullptr;   // a bundled CRD's shared subtrees (embed_schemas.cc)
  Fallbacks fallbacks;                      // a CRD's (openapi_to_jsonschema.h)
  std::string definition;                   // a built-in kind's definition name
  Definitions* definitions = nullptr;       // the Kubernetes definitions
  std::string deprecation;  // the API server's warning for a deprecated version, or ""
};

// The bundled versions of a family ("kubernetes", "argo-workflows", "jobset", "kueue",
// "kubeflow-trainer"), as compiler/validate/schemas/FAMILY@VERSION names them.
struct BundledFamily {
  std::string family;
  std::vector<std::string> versions;  // newest first: "v1.36", "v1.35", ...
  std::string default_version;        // the newest release (a version with no "-" suffix)
};
std::vector<BundledFamily> BundledFamilies();

// The bundled version of `family` that `wanted` names ("1.33" or "v1.33" names v1.33; "4.1"
// names v4.1.2; "0.12.0" names v0.12.0: a version or a prefix of it ending before a '.' or
// '-'), the newest when several match; "" when none does.
std::string MatchVersion(const std::string& family, const std::string& wanted);

// The kinds one bundled version serves: "apiVersion Kind" pairs, sorted.
std::vector<std::string> BundledKinds(const std::string& family, const std::string& version);

class SchemaStore {
 public:
  // family -> the version wanted, as MatchVersion reads it; a family not named (or a version
  // that matches none) gets its default.
  using Versions = std::map<std::string, std::string>;
  explicit SchemaStore(const Versions& versions = {});
  // `argo_version`: "3.7" or "4.1", which bundled Argo CRDs serve argoproj.io.
  explicit SchemaStore(const std::string& argo_version)
      : SchemaStore(Versions{{"argo-workflows", argo_version}}) {}
  ~SchemaStore();

  // The bundled version of `family` this store serves, e.g. "v1.36".
  std::string Chosen(const std::string& family) const;

  // The other bundled versions that serve apiVersion/kind ("kubernetes@v1.34", ...) when the
  // chosen one does not: a kind a cluster of that version refuses. Empty otherwise.
  std::vector<std::string> ServedElsewhere(const std::string& api_version,
                                           const std::string& kind) const;

  // Reads every *.yaml, *.yml and *.json file of `dir` (CRD files, or `kubectl get crd -o yaml`
  // output, a List of CRDs): their kinds replace bundled ones. A file that holds no CRD, or
  // cannot be read, is reported into `diagnostics` (which keeps `files` alive for its ranges).
  bool AddDirectory(const std::string& dir, diag::Diagnostics& diagnostics,
                    std::vector<std::unique_ptr<diag::SourceFile>>& files);

  // The schema of apiVersion/kind, or null when none is known. `error` says why a known kind's
  // schema could not be built (a corrupt --schemas CRD).
  const KindSchema* Find(const std::string& api_version, const std::string& kind,
                         std::string* error);

  // Reads the Kubernetes definitions, which nearly every kind needs (a CRD's metadata is
  // ObjectMeta): a worker can do it while the others read their YAML.
  void Preload() { AllDefinitions(); }

  // Every apiVersion/kind pair known, for a did-you-mean.
  std::vector<std::string> KnownKinds() const;

 private:
  struct Source;
  Definitions& AllDefinitions();
  const nlohmann::json& EmbeddedFile(size_t index);

  // Each embedded file is parsed once, by the first thread that needs it; threads that need
  // another file meanwhile go on (one once_flag per file, not one lock for all).
  struct Parsed {
    std::once_flag once;
    nlohmann::json value;
  };

  std::map<std::string, std::string> chosen_;  // family -> version
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> elsewhere_;
  size_t kubernetes_file_ = SIZE_MAX;  // the chosen definitions.json
  std::map<std::pair<std::string, std::string>, std::shared_ptr<Source>> sources_;
  std::unique_ptr<Parsed[]> embedded_files_;
  std::mutex built_mutex_;  // guards built_
  std::map<std::pair<std::string, std::string>, std::unique_ptr<KindSchema>> built_;
  std::once_flag definitions_once_;
  Definitions definitions_;
};

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_SCHEMA_STORE_H_
