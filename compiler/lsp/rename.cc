#include <fmt/format.h>

#include "compiler/graph/names.h"
#include "compiler/graph/templating.h"
#include "compiler/lsp/features.h"

namespace flowc::lsp {
namespace {

bool IsKeyword(std::string_view name) {
  for (std::string_view k :
       {"flow", "step", "param", "next", "foreach", "run", "true", "false", "null"}) {
    if (name == k) return true;
  }
  return false;
}

bool IsIdentifier(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name) {
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

// The step or param at `offset` that may be renamed, or nullptr with the reason in `error`.
const Occurrence* Renamable(const Snapshot& snapshot, size_t offset, Span* span,
                            std::string* error) {
  if (!snapshot.current.parsed) {
    *error = "the file has a syntax error: fix it first, so that every reference is found";
    return nullptr;
  }
  const Occurrence* occurrence = snapshot.OccurrenceAt(offset, span);
  if (occurrence == nullptr) {
    *error = "only a step or a param can be renamed";
    return nullptr;
  }
  if (occurrence->kind == SymbolKind::kStep &&
      (occurrence->name == "start" || occurrence->name == "end")) {
    *error = fmt::format("'{}' is where every flow {}: it cannot be renamed", occurrence->name,
                         occurrence->name == "start" ? "begins" : "finishes");
    return nullptr;
  }
  if (snapshot.view.analysis->outline.Find(occurrence->kind, occurrence->name) == nullptr) {
    *error = fmt::format("'{}' is not declared", occurrence->name);
    return nullptr;
  }
  return occurrence;
}

// Why `name` cannot be the new name of `occurrence`'s symbol, or "".
std::string Refusal(const Outline& outline, const Occurrence& occurrence, const std::string& name) {
  if (!IsIdentifier(name)) {
    return fmt::format(
        "'{}' is not a name: write letters, digits and '_', not starting with a digit", name);
  }
  if (IsKeyword(name)) return fmt::format("'{}' is a keyword", name);
  bool step = occurrence.kind == SymbolKind::kStep;
  const char* what = step ? "step" : "param";
  if (step && (name == "start" || name == "end")) {
    return fmt::format("'{}' has a meaning of its own: the flow {} there", name,
                       name == "start" ? "begins" : "finishes");
  }
  if (!step && (name == "item" || name == "run_id" || graph::IsGangReferenceName(name))) {
    return fmt::format("'{{{{{}}}}}' is a reserved reference and cannot name a param", name);
  }
  const std::vector<Symbol>& taken = step ? outline.steps : outline.params;
  for (const Symbol& other : taken) {
    if (other.name == occurrence.name) continue;
    if (other.name == name) return fmt::format("a {} named '{}' exists already", what, name);
    if (step && graph::KubernetesName(other.name) == graph::KubernetesName(name)) {
      return fmt::format("step '{}' has the same Kubernetes name '{}'", other.name,
                         graph::KubernetesName(name));
    }
  }
  return "";
}

}  // namespace

nlohmann::json PrepareRename(const Snapshot& snapshot, size_t offset, std::string* error) {
  Span span;
  const Occurrence* occurrence = Renamable(snapshot, offset, &span, error);
  if (occurrence == nullptr) return nullptr;
  return {{"range", snapshot.lines.Range(span.offset, span.length)},
          {"placeholder", occurrence->name}};
}

nlohmann::json Rename(const Snapshot& snapshot, size_t offset, const std::string& new_name,
                      std::string* error) {
  Span span;
  const Occurrence* occurrence = Renamable(snapshot, offset, &span, error);
  if (occurrence == nullptr) return nullptr;
  if (new_name == occurrence->name) return {{"changes", nlohmann::json::object()}};
  *error = Refusal(snapshot.view.analysis->outline, *occurrence, new_name);
  if (!error->empty()) return nullptr;
  nlohmann::json edits = nlohmann::json::array();
  for (Span at : snapshot.OccurrencesOf(occurrence->kind, occurrence->name, true)) {
    edits.push_back({{"range", snapshot.lines.Range(at.offset, at.length)}, {"newText", new_name}});
  }
  return {{"changes", {{snapshot.document.uri, std::move(edits)}}}};
}

}  // namespace flowc::lsp
