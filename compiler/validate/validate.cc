#include "compiler/validate/validate.h"

#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <memory>
#include <mutex>
#include <set>

#include "compiler/diag/suggest.h"
#include "compiler/validate/checks/checks.h"
#include "compiler/validate/json_util.h"
#include "compiler/validate/schema_check.h"
#include "compiler/validate/yaml_reader.h"

namespace flowc::validate {
namespace {

struct Problem {
  diag::Code code;
  Path path;  // from the document's root (a List item's path starts items[i])
  std::string message;
  std::string help;
};

std::string TypeName(const nlohmann::json& value) {
  if (value.is_null()) return "null";
  if (value.is_boolean()) return "boolean";
  if (value.is_number()) return "number";
  if (value.is_string()) return "string";
  if (value.is_array()) return "array";
  return "object";
}

// "WorkflowTemplate/nightly-train", as the kit and kubectl name an object; "-" for a missing
// part, "name*" for a generateName.
std::string Ident(const nlohmann::json& doc) {
  if (!doc.is_object()) return "-";
  std::string kind =
      doc.value("kind", nlohmann::json()).is_string() ? doc["kind"].get<std::string>() : "?";
  std::string name = "-";
  if (doc.contains("metadata") && doc["metadata"].is_object()) {
    const nlohmann::json& md = doc["metadata"];
    if (md.contains("name") && md["name"].is_string() && !md["name"].get<std::string>().empty()) {
      name = md["name"].get<std::string>();
    } else if (md.contains("generateName") && md["generateName"].is_string()) {
      name = md["generateName"].get<std::string>() + "*";
    }
  }
  return kind + "/" + name;
}

Path Join(const Path& prefix, const Path& path) {
  Path out = prefix;
  out.insert(out.end(), path.begin(), path.end());
  return out;
}

class DocumentChecker {
 public:
  // `parallel`: a big document, whose schema pass and semantic checks are worth threads.
  DocumentChecker(SchemaStore& store, const Options& options, std::vector<Problem>& problems,
                  bool parallel = false)
      : store_(store), options_(options), problems_(problems), parallel_(parallel) {}

  bool skipped() const { return skipped_; }

  void Check(nlohmann::json& doc, const Path& prefix) {
    if (!doc.is_object()) {
      Add(diag::Code::kYamlDocument, prefix,
          fmt::format("a document must be a mapping with apiVersion and kind, not {}",
                      TypeName(doc)),
          "");
      return;
    }
    auto text = [&](const char* key) {
      auto it = doc.find(key);
      return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    std::string api_version = text("apiVersion"), kind = text("kind");
    if (api_version.empty())
      Add(diag::Code::kSchemaViolation, Join(prefix, {Key("apiVersion")}),
          "Required value: apiVersion is required", "");
    if (kind.empty())
      Add(diag::Code::kSchemaViolation, Join(prefix, {Key("kind")}),
          "Required value: kind is required", "");
    if (api_version.empty() || kind.empty()) return;
    if (api_version == "v1" && kind == "List") {
      if (doc.contains("items") && doc["items"].is_array()) {
        for (size_t i = 0; i < doc["items"].size(); ++i) {
          Check(doc["items"][i], Join(prefix, {Key("items"), Index(i)}));
        }
      }
      return;
    }
    std::string error;
    const KindSchema* schema = store_.Find(api_version, kind, &error);
    if (schema == nullptr && !error.empty()) {
      Add(diag::Code::kSchemaFile, Join(prefix, {Key("kind")}), error, "");
      return;
    }
    if (schema == nullptr && NotServedByChosenVersion(api_version, kind, prefix)) return;
    if (schema == nullptr) {
      if (options_.allow_unknown_kinds) {
        skipped_ = true;
        return;
      }
      std::vector<std::string> known = store_.KnownKinds();
      std::vector<std::string_view> names(known.begin(), known.end());
      std::string guess = diag::ClosestMatch(api_version + " " + kind, names);
      std::string help =
          guess.empty()
              ? "flowc validate knows Argo, JobSet, Kubeflow Trainer, Kueue and "
                "Kubernetes kinds; give the CRD with --schemas DIR, or pass "
                "--allow-unknown-kinds"
              : fmt::format("did you mean apiVersion {}, kind {}?",
                            guess.substr(0, guess.find(' ')), guess.substr(guess.find(' ') + 1));
      Add(diag::Code::kUnknownKind, Join(prefix, {Key("kind")}),
          fmt::format("no schema for apiVersion {}, kind {}", api_version, kind), help);
      return;
    }
    std::set<std::string> schema_paths;
    auto report = [&](diag::Code code) {
      return [this, code, &prefix, &schema_paths](Finding f) {
        schema_paths.insert(f.path);
        AddFinding(code, prefix, std::move(f));
      };
    };
    TranslatedSchema translated = PrepareDocument(*schema, doc);
    bool cluster_scoped = schema->scope == "Cluster";
    WarnAccepted(*schema, doc, prefix, cluster_scoped);
    // The semantic checks read the prepared document as the schema pass does: on a thread of
    // their own for a big one, their findings kept until the schema's are in.
    std::vector<Finding> semantic;
    std::future<void> checking;
    if (parallel_) {
      PrepareForThreads();
      checking = std::async(std::launch::async, [&] {
        CheckSemantics(doc, cluster_scoped, [&](Finding f) { semantic.push_back(std::move(f)); });
      });
    }
    CheckSchema(translated, doc, report(diag::Code::kSchemaViolation),
                report(diag::Code::kValidationRule), parallel_);
    if (parallel_) {
      checking.get();
    } else {
      CheckSemantics(doc, cluster_scoped, [&](Finding f) { semantic.push_back(std::move(f)); });
    }
    // One complaint per field: the schema's wins (checks/checks.h).
    for (Finding& f : semantic) {
      if (schema_paths.count(f.path)) continue;
      AddFinding(diag::Code::kAdmissionCheck, prefix, std::move(f));
    }
  }

  // A kind that another bundled version of its family serves, and the chosen one does not (a
  // Kubernetes 1.33 cluster has no resource.k8s.io/v1): the cluster refuses it, so it is an
  // error even with --allow-unknown-kinds. False when no bundled version serves it.
  bool NotServedByChosenVersion(const std::string& api_version, const std::string& kind,
                                const Path& prefix) {
    std::vector<std::string> elsewhere = store_.ServedElsewhere(api_version, kind);
    if (elsewhere.empty()) return false;
    std::string family = elsewhere.front().substr(0, elsewhere.front().find('@'));
    std::string chosen = store_.Chosen(family);
    std::vector<std::string> versions;
    for (const std::string& label : elsewhere) {
      if (label.compare(0, family.size() + 1, family + "@") == 0) {
        versions.push_back(label.substr(family.size() + 1));
      }
    }
    std::string listed;
    for (size_t i = 0; i < versions.size(); ++i) {
      listed += (i == 0 ? "" : i + 1 == versions.size() ? " and " : ", ") + versions[i];
    }
    // What the chosen version offers for the kind instead, if anything.
    std::vector<std::string> instead;
    for (const std::string& known : store_.KnownKinds()) {
      size_t space = known.find(' ');
      if (known.substr(space + 1) == kind) instead.push_back(known.substr(0, space));
    }
    std::string help = fmt::format("{} {} serve{} it: pick one with {} {}", family, listed,
                                   versions.size() == 1 ? "s" : "", VersionFlag(family),
                                   FlagValue(family, versions.front()));
    if (!instead.empty()) {
      std::string apis;
      for (const std::string& a : instead) apis += (apis.empty() ? "" : ", ") + a;
      help += fmt::format("; {}@{} serves {} as {}", family, chosen, kind, apis);
    }
    Add(diag::Code::kUnknownKind, Join(prefix, {Key("apiVersion")}),
        fmt::format("{}@{} does not serve apiVersion {}, kind {}", family, chosen, api_version,
                    kind),
        std::move(help));
    return true;
  }

  // What the API server accepts but changes or warns about: each a warning of its own.
  void WarnAccepted(const KindSchema& schema, const nlohmann::json& doc, const Path& prefix,
                    bool cluster_scoped) {
    if (!schema.deprecation.empty()) {
      // customresource_handler.go sends the version's deprecation warning with the response;
      // kubectl prints it as "Warning: ...".
      Add(diag::Code::kDeprecatedVersion, Join(prefix, {Key("apiVersion")}),
          fmt::format("{} {} is deprecated; the API server warns: \"{}\"", schema.api_version,
                      schema.kind, schema.deprecation),
          "");
    }
    auto meta = doc.find("metadata");
    if (cluster_scoped && meta != doc.end() && meta->is_object()) {
      auto ns = meta->find("namespace");
      if (ns != meta->end() && ns->is_string() && !ns->get_ref<const std::string&>().empty()) {
        // k8s.io/apiserver/pkg/registry/rest/create.go, BeforeCreate: for a cluster-scoped kind
        // EnsureObjectNamespaceMatchesRequestNamespace clears the namespace ("cluster-scoped,
        // clear namespace") before any validation, and the object is created.
        Add(diag::Code::kNamespaceIgnored, Join(prefix, {Key("metadata"), Key("namespace")}),
            fmt::format("a {} is cluster-scoped: the API server drops metadata.namespace and "
                        "creates it without one",
                        schema.kind),
            "remove metadata.namespace");
      }
    }
  }

  void AddFinding(diag::Code code, const Path& prefix, Finding f) {
    std::optional<Path> path = ParsePath(f.path);
    Add(code, Join(prefix, path.value_or(Path{})),
        path ? std::move(f.message) : f.path + ": " + f.message, std::move(f.help));
  }

 private:
  void Add(diag::Code code, Path path, std::string message, std::string help) {
    problems_.push_back(Problem{code, std::move(path), std::move(message), std::move(help)});
  }

  SchemaStore& store_;
  const Options& options_;
  std::vector<Problem>& problems_;
  bool parallel_;
  bool skipped_ = false;
};

}  // namespace

std::string VersionFlag(const std::string& family) {
  if (family == "argo-workflows") return "--argo-version";
  if (family == "kubeflow-trainer") return "--trainer-version";
  return "--" + family + "-version";
}

std::string FlagValue(const std::string& family, const std::string& version) {
  std::string out = !version.empty() && version[0] == 'v' ? version.substr(1) : version;
  // --argo-version takes major.minor: "4.1" for v4.1.2.
  if (family == "argo-workflows") {
    size_t dot = out.find('.');
    if (dot != std::string::npos) out = out.substr(0, out.find('.', dot + 1));
  }
  return out;
}

namespace {

// A document of this many YAML nodes (about a megabyte) is checked on three threads: below it,
// starting them costs more than it saves.
constexpr size_t kParallelNodes = 50'000;

}  // namespace

void ValidateFile(const diag::SourceFile& file, SchemaStore& store, const Options& options,
                  diag::Diagnostics& diagnostics, Counts& counts) {
  YamlStream local = ReadYamlStream(file);
  YamlStream* kept = &local;
  if (options.keep_documents) {
    // Taking apart the documents' JSON and positions cost a twelfth of a big stream's run.
    static auto* mutex = new std::mutex();
    static auto* streams = new std::vector<std::unique_ptr<YamlStream>>();
    auto owned = std::make_unique<YamlStream>(std::move(local));
    kept = owned.get();
    std::lock_guard<std::mutex> lock(*mutex);
    streams->push_back(std::move(owned));
  }
  YamlStream& stream = *kept;
  std::vector<std::vector<Problem>> problems(stream.documents.size());
  std::vector<bool> skipped(stream.documents.size(), false);
  for (size_t i = 0; i < stream.documents.size(); ++i) {
    YamlDocument& doc = stream.documents[i];
    for (const YamlProblem& p : doc.problems) {
      problems[i].push_back(Problem{diag::Code::kYamlDocument, p.path, p.message, ""});
    }
    DocumentChecker checker(store, options, problems[i], doc.positions.size() >= kParallelNodes);
    checker.Check(doc.value, {});
    skipped[i] = checker.skipped();
  }
  std::vector<const nlohmann::json*> docs;
  for (const YamlDocument& doc : stream.documents) {
    docs.push_back(doc.value.is_object() ? &doc.value : nullptr);
  }
  CheckStream(docs, [&](size_t i) -> Report {
    return [&problems, &store, &options, i](Finding f) {
      DocumentChecker checker(store, options, problems[i]);
      checker.AddFinding(diag::Code::kAdmissionCheck, {}, std::move(f));
    };
  });
  for (size_t i = 0; i < stream.documents.size(); ++i) {
    const YamlDocument& doc = stream.documents[i];
    std::string ident = Ident(doc.value);
    std::set<std::pair<std::string, std::string>> seen;
    bool failed = false;
    for (Problem& p : problems[i]) {
      std::string where = FormatPath(p.path);
      if (!seen.emplace(where, p.message).second) continue;
      // A List's item is named by its own kind and name.
      std::string name = ident;
      if (p.path.size() >= 2 && p.path[0].key == "items" && p.path[1].is_index &&
          Str(doc.value, "kind") == "List") {
        const nlohmann::json& items = doc.value["items"];
        if (items.is_array() && p.path[1].index < items.size())
          name = Ident(items[p.path[1].index]);
      }
      std::string message = where.empty() ? fmt::format("{}: {}", name, p.message)
                                          : fmt::format("{}: {}: {}", name, where, p.message);
      diag::Diagnostic& d =
          diagnostics.Report(p.code, &file, doc.Locate(p.path), std::move(message));
      if (!p.help.empty()) d.SetHelp(std::move(p.help));
      // A warning is what the cluster accepts: the document still passes.
      failed |= d.severity == diag::Severity::kError;
    }
    if (failed) {
      ++counts.failed;
    } else if (skipped[i]) {
      ++counts.skipped;
    } else {
      ++counts.passed;
    }
  }
  if (stream.error) {
    bool utf8 = stream.error->second.rfind("invalid UTF-8", 0) == 0;
    diagnostics.Report(utf8 ? diag::Code::kInvalidUtf8 : diag::Code::kYamlSyntax, &file,
                       stream.error->first, stream.error->second);
    ++counts.failed;
  } else if (stream.documents.empty()) {
    diagnostics
        .Report(diag::Code::kYamlDocument, &file, file.RangeAt(0, 0), "no YAML documents found")
        .SetHelp("flowc validate checks Kubernetes objects: give a file with at least one");
    ++counts.failed;
  }
}

}  // namespace flowc::validate
