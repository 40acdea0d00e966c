// Build-time tool: compresses the bundled schemas and writes them, with an index of the kinds
// they serve, as C++ data (embedded.h).
//
//   flowc_embed_schemas OUT.cc SCHEMA_DIR FAMILY@VERSION/FILE...
//
// Each file (CRD JSON or YAML, Kubernetes OpenAPI definitions) becomes compact JSON, an array
// of its documents: nlohmann parses compact JSON fastest, and zlib shrinks the 4 MB of
// schemas to about a tenth. A CRD's repeated schemas are stored once (Sharer), and each
// Kubernetes definition as its own JSON text, parsed only when a run reaches it. A FAMILY@VERSION
// folder's namespaced-kinds.json gives the scope of its built-in kinds and is not embedded itself.
// Deterministic: same files, same bytes.
#include <fmt/format.h>
#include <zlib.h>

#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/diag/source.h"
#include "compiler/validate/schema_index.h"
#include "compiler/validate/yaml_reader.h"

namespace {

using flowc::validate::KindRow;

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  *out = s.str();
  return true;
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The file's documents as one JSON array, or an error.
bool Documents(const std::string& path, const std::string& text, nlohmann::json* out,
               std::string* error) {
  *out = nlohmann::json::array();
  if (EndsWith(path, ".json")) {
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded()) {
      *error = "not JSON";
      return false;
    }
    out->push_back(std::move(doc));
    return true;
  }
  flowc::diag::SourceFile file(path, text);
  flowc::validate::YamlStream stream = flowc::validate::ReadYamlStream(file);
  if (stream.error) {
    *error = fmt::format("{}:{}: {}", path, stream.error->first.line, stream.error->second);
    return false;
  }
  for (auto& doc : stream.documents) out->push_back(std::move(doc.value));
  return true;
}

std::string Literal(std::string_view s) { return nlohmann::json(std::string(s)).dump(); }

// Drops the schema keywords no run reads (openapi_to_jsonschema.cc skips them), so that each
// run parses less: a property named like one, inside `properties`, is kept.
void Strip(nlohmann::json& node, bool is_property_map) {
  static const char* const kUnread[] = {"description",
                                        "example",
                                        "title",
                                        "x-kubernetes-map-type",
                                        "x-kubernetes-patch-merge-key",
                                        "x-kubernetes-patch-strategy",
                                        "x-kubernetes-unions"};
  if (node.is_array()) {
    for (nlohmann::json& item : node) Strip(item, false);
    return;
  }
  if (!node.is_object()) return;
  if (!is_property_map) {
    for (const char* key : kUnread) node.erase(key);
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    bool map = !is_property_map && (it.key() == "properties" || it.key() == "definitions" ||
                                    it.key() == "patternProperties");
    Strip(*it, map);
  }
}

// Argo's CRDs repeat the pod spec and the template schema wherever a template can go: the
// WorkflowTemplate schema has 27,000 nodes and only 3,000 of them outside repeated subtrees.
// Each schema that occurs more than once as a property, an items or an additionalProperties
// schema under a CRD version's openAPIV3Schema is kept once, in the document's
// "x-flowc-shared" list, and each occurrence becomes {"x-flowc-shared": N}, which
// OpenApiTranslator follows (openapi_to_jsonschema.cc), so that a run parses an eighth of the
// nodes. Entries are numbered in the order a walk meets them: the output stays deterministic.
class Sharer {
 public:
  void Share(nlohmann::json& crd) {
    if (!crd.is_object() || !crd.contains("spec") || !crd["spec"].contains("versions")) return;
    const nlohmann::json::json_pointer root("/schema/openAPIV3Schema");
    for (int pass = 0; pass < 2; ++pass) {
      counting_ = pass == 0;
      for (nlohmann::json& version : crd["spec"]["versions"]) {
        if (version.contains(root)) Children(version[root]);
      }
    }
    if (!table_.empty()) crd["x-flowc-shared"] = std::move(table_);
  }

 private:
  // Smaller schemas cost less to parse than the reference that would stand for them.
  static constexpr size_t kMinBytes = 48;

  // The schemas directly below `schema` that may be shared.
  void Children(nlohmann::json& schema) {
    if (!schema.is_object()) return;
    if (auto props = schema.find("properties"); props != schema.end() && props->is_object()) {
      for (nlohmann::json& child : *props) Visit(child);
    }
    for (const char* key : {"items", "additionalProperties"}) {
      if (auto child = schema.find(key); child != schema.end() && child->is_object()) {
        Visit(*child);
      }
    }
  }

  void Visit(nlohmann::json& schema) {
    std::string text = schema.dump();
    if (counting_) {
      if (text.size() >= kMinBytes) ++counts_[text];
      Children(schema);
      return;
    }
    auto count = counts_.find(text);
    if (count == counts_.end() || count->second < 2) {
      Children(schema);
      return;
    }
    auto [it, added] = index_.emplace(text, table_.size());
    if (added) {
      table_.push_back(nullptr);
      nlohmann::json entry = schema;
      Children(entry);
      table_[it->second] = std::move(entry);
    }
    schema = {{"x-flowc-shared", it->second}};
  }

  bool counting_ = true;
  std::map<std::string, size_t> counts_;
  std::map<std::string, size_t> index_;
  nlohmann::json table_ = nlohmann::json::array();
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: flowc_embed_schemas OUT.cc SCHEMA_DIR FAMILY@VERSION/FILE...\n";
    return 2;
  }
  std::string out_path = argv[1];
  std::string root = argv[2];
  std::string code =
      "// Generated by compiler/validate/embed_schemas.cc from compiler/validate/schemas/.\n"
      "#include \"compiler/validate/embedded.h\"\n\n"
      "namespace flowc::validate::embedded {\n";
  std::string files = "const File kFiles[] = {\n";
  std::string kinds = "const Kind kKinds[] = {\n";
  size_t file_count = 0, kind_count = 0;
  for (int i = 3; i < argc; ++i) {
    std::string rel = argv[i];
    size_t slash = rel.find('/');
    size_t at = rel.find('@');
    if (slash == std::string::npos || at == std::string::npos || at > slash) {
      std::cerr << "flowc_embed_schemas: " << rel << " is not FAMILY@VERSION/FILE\n";
      return 1;
    }
    std::string family = rel.substr(0, at), version = rel.substr(at + 1, slash - at - 1),
                name = rel.substr(slash + 1);
    if (!EndsWith(name, ".json") && !EndsWith(name, ".yaml") && !EndsWith(name, ".yml")) continue;
    if (name == "namespaced-kinds.json") continue;
    std::string text, error;
    if (!ReadFile(root + "/" + rel, &text)) {
      std::cerr << "flowc_embed_schemas: cannot read " << rel << "\n";
      return 1;
    }
    nlohmann::json docs;
    if (!Documents(rel, text, &docs, &error)) {
      std::cerr << "flowc_embed_schemas: " << rel << ": " << error << "\n";
      return 1;
    }
    flowc::validate::NamespacedKinds namespaced;
    std::string nk;
    if (ReadFile(root + "/" + family + "@" + version + "/namespaced-kinds.json", &nk)) {
      namespaced = flowc::validate::ReadNamespacedKinds(nlohmann::json::parse(nk, nullptr, false));
    }
    size_t rows = 0;
    for (const nlohmann::json& doc : docs) {
      for (const KindRow& row : flowc::validate::KindsOf(doc, namespaced)) {
        kinds += fmt::format("  {{{}, {}, {}, {}, {}, {}, {}}},\n", Literal(row.api_version),
                             Literal(row.kind), Literal(row.scope), Literal(row.selector),
                             row.is_crd ? "true" : "false", file_count,
                             Literal(row.deprecation));
        ++kind_count;
        ++rows;
      }
    }
    if (rows == 0) {
      std::cerr << "flowc_embed_schemas: " << rel << " holds no CRD or OpenAPI definitions\n";
      return 1;
    }
    Strip(docs, false);
    for (nlohmann::json& doc : docs) {
      if (flowc::validate::IsCrd(doc)) {
        Sharer().Share(doc);
      } else if (doc.is_object() && doc.contains("definitions") && doc["definitions"].is_object()) {
        // Each definition as its JSON text: a run parses only those it reaches
        // (schema_store.h, Definitions).
        for (nlohmann::json& definition : doc["definitions"]) definition = definition.dump();
      }
    }
    std::string raw = docs.dump();
    uLongf size = compressBound(raw.size());
    std::vector<unsigned char> packed(size);
    if (compress2(packed.data(), &size, reinterpret_cast<const Bytef*>(raw.data()), raw.size(),
                  Z_BEST_COMPRESSION) != Z_OK) {
      std::cerr << "flowc_embed_schemas: zlib failed on " << rel << "\n";
      return 1;
    }
    // A string literal of escapes, not an initializer list of numbers: the compilers read a
    // megabyte of it in a fraction of a second where the list took 24 s (gcc -O2 -g).
    code += fmt::format("static const char kData{}[] =", file_count);
    for (uLongf b = 0; b < size; ++b) {
      if (b % 32 == 0) code += b == 0 ? "\n  \"" : "\"\n  \"";
      code += fmt::format("\\x{:02x}", packed[b]);
    }
    code += "\";\n";
    files += fmt::format("  {{{}, {}, {}, kData{}, {}, {}}},\n", Literal(family), Literal(version),
                         Literal(name), file_count, size, raw.size());
    ++file_count;
  }
  files += "};\n";
  kinds += "};\n";
  code += files + fmt::format("const size_t kFileCount = {};\n", file_count) + kinds +
          fmt::format("const size_t kKindCount = {};\n", kind_count) +
          "\n}  // namespace flowc::validate::embedded\n";
  std::string tmp = out_path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << code;
    if (!out) {
      std::cerr << "flowc_embed_schemas: cannot write " << tmp << "\n";
      return 1;
    }
  }
  return std::rename(tmp.c_str(), out_path.c_str()) == 0 ? 0 : 1;
}
