#include "compiler/validate/schema_store.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string_view>
#include <sstream>

#include "compiler/validate/embedded.h"
#include "compiler/validate/json_util.h"
#include "compiler/validate/schema_index.h"
#include "compiler/validate/yaml_reader.h"

namespace flowc::validate {

struct SchemaStore::Source {
  KindRow row;
  std::string source;  // for messages
  size_t embedded_file = 0;
  std::shared_ptr<const nlohmann::json> document;  // a --schemas CRD; null: embedded
};

SchemaStore::~SchemaStore() = default;

namespace {

// "v0.13.0-devel-43-g08dfbdfd" -> ({0, 13, 0}, prerelease): releases sort by their numbers, and
// a prerelease below the release of the same numbers.
std::pair<std::vector<long>, bool> VersionKey(std::string_view version) {
  if (!version.empty() && version[0] == 'v') version.remove_prefix(1);
  std::string_view numbers = version.substr(0, version.find('-'));
  std::vector<long> parts;
  long part = 0;
  for (char c : numbers) {
    if (c == '.') {
      parts.push_back(part);
      part = 0;
    } else if (c >= '0' && c <= '9' && part < 100'000'000) {
      part = part * 10 + (c - '0');
    }
  }
  parts.push_back(part);
  return {parts, numbers.size() == version.size()};
}

bool Newer(std::string_view a, std::string_view b) { return VersionKey(a) > VersionKey(b); }

std::string_view WithoutV(std::string_view s) {
  if (!s.empty() && (s[0] == 'v' || s[0] == 'V')) s.remove_prefix(1);
  return s;
}

std::string Label(std::string_view family, std::string_view version) {
  return fmt::format("{}@{}", family, version);
}

}  // namespace

std::vector<BundledFamily> BundledFamilies() {
  std::map<std::string, std::set<std::string>> found;
  for (size_t i = 0; i < embedded::kFileCount; ++i) {
    found[std::string(embedded::kFiles[i].family)].insert(std::string(embedded::kFiles[i].version));
  }
  std::vector<BundledFamily> out;
  for (auto& [family, versions] : found) {
    BundledFamily f{family, {versions.begin(), versions.end()}, ""};
    std::sort(f.versions.begin(), f.versions.end(), Newer);
    for (const std::string& v : f.versions) {
      if (v.find('-') == std::string::npos) {
        f.default_version = v;
        break;
      }
    }
    if (f.default_version.empty()) f.default_version = f.versions.front();
    out.push_back(std::move(f));
  }
  return out;
}

std::string MatchVersion(const std::string& family, const std::string& wanted) {
  std::string_view w = WithoutV(wanted);
  if (w.empty()) return "";
  for (const BundledFamily& f : BundledFamilies()) {
    if (f.family != family) continue;
    for (const std::string& version : f.versions) {  // newest first
      std::string_view v = WithoutV(version);
      if (v == w || (v.size() > w.size() && v.substr(0, w.size()) == w &&
                     (v[w.size()] == '.' || v[w.size()] == '-'))) {
        return version;
      }
    }
  }
  return "";
}

namespace {

// The rows a bundled version serves, with ClusterWorkflowTemplate, which is served from the
// WorkflowTemplate CRD: its schema equals WorkflowTemplate's apart from descriptions
// (compiler/validate/schemas/argo-workflows@*/SOURCE.md).
template <typename Visit>
void ForEachBundledKind(const Visit& visit) {
  for (size_t i = 0; i < embedded::kKindCount; ++i) {
    const embedded::Kind& k = embedded::kKinds[i];
    KindRow row{std::string(k.api_version), std::string(k.kind),     std::string(k.scope),
                std::string(k.selector),    k.is_crd,                std::string(k.deprecation)};
    visit(k, row);
    if (k.kind == "WorkflowTemplate" && k.api_version.substr(0, 12) == "argoproj.io/") {
      row.kind = "ClusterWorkflowTemplate";
      row.scope = "Cluster";
      visit(k, row);
    }
  }
}

}  // namespace

std::vector<std::string> BundledKinds(const std::string& family, const std::string& version) {
  std::set<std::string> out;
  ForEachBundledKind([&](const embedded::Kind& k, const KindRow& row) {
    const embedded::File& f = embedded::kFiles[k.file];
    if (f.family == family && f.version == version) out.insert(row.api_version + " " + row.kind);
  });
  return {out.begin(), out.end()};
}

SchemaStore::SchemaStore(const Versions& versions)
    : embedded_files_(std::make_unique<Parsed[]>(embedded::kFileCount)) {
  for (const BundledFamily& f : BundledFamilies()) {
    auto wanted = versions.find(f.family);
    std::string match = wanted != versions.end() ? MatchVersion(f.family, wanted->second) : "";
    chosen_[f.family] = match.empty() ? f.default_version : match;
  }
  for (size_t i = 0; i < embedded::kFileCount; ++i) {
    const embedded::File& f = embedded::kFiles[i];
    if (f.name == "definitions.json" && chosen_[std::string(f.family)] == f.version) {
      kubernetes_file_ = i;
    }
  }
  // Built-ins first, CRDs after: a CRD wins a clash, as it would on a cluster.
  for (int pass = 0; pass < 2; ++pass) {
    ForEachBundledKind([&](const embedded::Kind& k, const KindRow& row) {
      if (k.is_crd != (pass == 1)) return;
      const embedded::File& f = embedded::kFiles[k.file];
      std::pair<std::string, std::string> key{row.api_version, row.kind};
      if (chosen_[std::string(f.family)] != f.version) {
        std::vector<std::string>& other = elsewhere_[key];
        std::string label = Label(f.family, f.version);
        if (std::find(other.begin(), other.end(), label) == other.end()) other.push_back(label);
        return;
      }
      auto source = std::make_shared<Source>();
      source->row = row;
      source->source = Label(f.family, f.version);
      source->embedded_file = k.file;
      sources_[key] = source;
    });
  }
  for (auto& [key, other] : elsewhere_) {
    std::sort(other.begin(), other.end(), [](const std::string& a, const std::string& b) {
      size_t at_a = a.find('@'), at_b = b.find('@');
      if (a.compare(0, at_a, b, 0, at_b) != 0) return a < b;
      return Newer(std::string_view(b).substr(at_b + 1), std::string_view(a).substr(at_a + 1));
    });
  }
}

std::string SchemaStore::Chosen(const std::string& family) const {
  auto it = chosen_.find(family);
  return it == chosen_.end() ? "" : it->second;
}

std::vector<std::string> SchemaStore::ServedElsewhere(const std::string& api_version,
                                                      const std::string& kind) const {
  auto key = std::make_pair(api_version, kind);
  if (sources_.count(key)) return {};
  auto it = elsewhere_.find(key);
  return it == elsewhere_.end() ? std::vector<std::string>{} : it->second;
}

const nlohmann::json& SchemaStore::EmbeddedFile(size_t index) {
  Parsed& parsed = embedded_files_[index];
  std::call_once(parsed.once, [&] {
    const embedded::File& f = embedded::kFiles[index];
    std::string raw(f.raw_size, '\0');
    uLongf size = f.raw_size;
    nlohmann::json docs;
    if (uncompress(reinterpret_cast<Bytef*>(raw.data()), &size,
                   reinterpret_cast<const Bytef*>(f.data), f.size) == Z_OK &&
        size == f.raw_size) {
      docs = nlohmann::json::parse(raw, nullptr, /*allow_exceptions=*/false);
    }
    if (!docs.is_array()) docs = nlohmann::json::array();  // cannot happen: built by our tool
    parsed.value = std::move(docs);
  });
  return parsed.value;
}

void Definitions::Add(nlohmann::json texts) {
  std::lock_guard<std::mutex> lock(mutex_);
  texts_.update(texts);
}

const nlohmann::json* Definitions::Find(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = parsed_.find(name); it != parsed_.end()) return &it->second;
  auto text = texts_.find(name);
  if (text == texts_.end() || !text->is_string()) return nullptr;
  // A std::map's values stay where they are as it grows: the pointer outlives the lock.
  return &parsed_
              .emplace(name, nlohmann::json::parse(text->get_ref<const std::string&>(), nullptr,
                                                   /*allow_exceptions=*/false))
              .first->second;
}

Definitions& SchemaStore::AllDefinitions() {
  std::call_once(definitions_once_, [&] {
    // Only the chosen Kubernetes version's definitions: each version has its own file.
    if (kubernetes_file_ >= embedded::kFileCount) return;
    // Only this function reads definitions.json, so its texts are moved out, not copied.
    EmbeddedFile(kubernetes_file_);
    for (nlohmann::json& doc : embedded_files_[kubernetes_file_].value) {
      if (doc.is_object() && doc.contains("definitions") && doc["definitions"].is_object()) {
        definitions_.Add(std::move(doc["definitions"]));
      }
    }
  });
  return definitions_;
}

bool SchemaStore::AddDirectory(const std::string& dir, diag::Diagnostics& diagnostics,
                               std::vector<std::unique_ptr<diag::SourceFile>>& files) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    diagnostics.Report(diag::Code::kSchemaFile, nullptr, {},
                       fmt::format("--schemas '{}' is not a directory", dir));
    return false;
  }
  std::vector<std::string> paths;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string ext = it->path().extension().string();
    if (ext == ".yaml" || ext == ".yml" || ext == ".json") paths.push_back(it->path().string());
  }
  std::sort(paths.begin(), paths.end());
  bool ok = true;
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
      diagnostics.Report(diag::Code::kSchemaFile, nullptr, {},
                         fmt::format("cannot read schema file '{}'", path));
      ok = false;
      continue;
    }
    const diag::SourceFile& file =
        *files.emplace_back(std::make_unique<diag::SourceFile>(path, text.str()));
    YamlStream stream = ReadYamlStream(file);  // JSON is YAML
    if (stream.error) {
      diagnostics.Report(diag::Code::kSchemaFile, &file, stream.error->first, stream.error->second);
      ok = false;
      continue;
    }
    std::vector<std::pair<const nlohmann::json*, diag::SourceRange>> crds;
    for (const YamlDocument& doc : stream.documents) {
      if (IsCrd(doc.value)) {
        crds.emplace_back(&doc.value, doc.Locate({}));
      } else if (doc.value.is_object() && Str(doc.value, "kind") == "List" &&
                 doc.value.contains("items") && doc.value["items"].is_array()) {
        // `kubectl get crd -o yaml`
        for (const nlohmann::json& item : doc.value["items"]) {
          if (IsCrd(item)) crds.emplace_back(&item, doc.Locate({}));
        }
      }
    }
    size_t added = 0;
    for (const auto& [crd, range] : crds) {
      auto shared = std::make_shared<const nlohmann::json>(*crd);
      for (const KindRow& row : KindsOf(*shared, {})) {
        auto source = std::make_shared<Source>();
        source->row = row;
        source->source = path;
        source->document = shared;
        built_.erase({row.api_version, row.kind});
        sources_[{row.api_version, row.kind}] = source;
        ++added;
      }
    }
    if (added == 0) {
      diagnostics
          .Report(diag::Code::kSchemaFile, &file,
                  stream.documents.empty() ? diag::SourceRange{} : stream.documents[0].Locate({}),
                  fmt::format("'{}' holds no CustomResourceDefinition with a served version and "
                              "an openAPIV3Schema",
                              path))
          .SetHelp("--schemas reads CRD YAML files, or the output of `kubectl get crd -o yaml`");
      ok = false;
    }
  }
  return ok;
}

const KindSchema* SchemaStore::Find(const std::string& api_version, const std::string& kind,
                                    std::string* error) {
  auto key = std::make_pair(api_version, kind);
  {
    std::lock_guard<std::mutex> lock(built_mutex_);
    if (auto it = built_.find(key); it != built_.end()) return it->second.get();
  }
  // Built outside the lock (parsing a file is the slow part, and EmbeddedFile parses each file
  // once whoever asks); two threads that race here build equal schemas, and the first is kept.
  auto it = sources_.find(key);
  if (it == sources_.end()) return nullptr;
  const Source& source = *it->second;
  auto out = std::make_unique<KindSchema>();
  out->api_version = api_version;
  out->kind = kind;
  out->scope = source.row.scope;
  out->source = source.source;
  out->definitions = &AllDefinitions();
  out->deprecation = source.row.deprecation;
  if (source.row.is_crd) {
    const nlohmann::json* crd = source.document.get();
    if (crd == nullptr) {
      // ClusterWorkflowTemplate is served from the WorkflowTemplate CRD (the constructor).
      std::string wanted = kind == "ClusterWorkflowTemplate" ? "WorkflowTemplate" : kind;
      for (const nlohmann::json& doc : EmbeddedFile(source.embedded_file)) {
        if (IsCrd(doc) && !KindsOf(doc, {}).empty() &&
            Str(doc["spec"]["names"], "kind") == wanted) {
          crd = &doc;
        }
      }
    }
    if (crd != nullptr) {
      // Only a bundled CRD has shared schemas (embed_schemas.cc): a user's is read as written.
      auto shared = crd->find("x-flowc-shared");
      if (source.document == nullptr && shared != crd->end()) out->shared = &*shared;
      for (const nlohmann::json& v : (*crd)["spec"]["versions"]) {
        if (v.is_object() && Str(v, "name") == source.row.selector) {
          out->openapi = &v["schema"]["openAPIV3Schema"];
        }
      }
    }
    if (out->openapi != nullptr && out->openapi->is_object()) {
      out->fallbacks = OpenApiTranslator(nullptr, out->shared).FindFallbacks(*out->openapi, kind);
    } else {
      *error =
          fmt::format("the schema of {} {} in {} cannot be read", api_version, kind, source.source);
      return nullptr;
    }
  } else {
    out->definition = source.row.selector;
  }
  std::lock_guard<std::mutex> lock(built_mutex_);
  return built_.emplace(key, std::move(out)).first->second.get();
}

std::vector<std::string> SchemaStore::KnownKinds() const {
  std::vector<std::string> out;
  for (const auto& [key, source] : sources_) out.push_back(key.first + " " + key.second);
  return out;
}

}  // namespace flowc::validate
