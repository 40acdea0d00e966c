// The schemas bundled into flowc: the files under compiler/validate/schemas/, each compressed
// with zlib at build time by embed_schemas.cc, and an index of the kinds they serve, so that a
// run decompresses only the files its documents need. schema_store.cc is the only user.
#ifndef FLOWC_VALIDATE_EMBEDDED_H_
#define FLOWC_VALIDATE_EMBEDDED_H_

#include <cstddef>
#include <string_view>

namespace flowc::validate::embedded {

struct File {
  std::string_view family;    // "argo-workflows"
  std::string_view version;   // "v4.1.2"
  std::string_view name;      // "argoproj.io_workflows.json"
  const char* data;           // zlib: compact JSON, an array of the file's documents
  size_t size;
  size_t raw_size;
};

struct Kind {
  std::string_view api_version;
  std::string_view kind;
  std::string_view scope;
  std::string_view selector;  // CRD version name, or definition name
  bool is_crd;
  size_t file;                   // index into kFiles
  std::string_view deprecation;  // the API server's warning for a deprecated CRD version, or ""

};

// Defined in the generated embedded_schemas.cc.
extern const File kFiles[];
extern const size_t kFileCount;
extern const Kind kKinds[];
extern const size_t kKindCount;

}  // namespace flowc::validate::embedded

#endif  // FLOWC_VALIDATE_EMBEDDED_H_
