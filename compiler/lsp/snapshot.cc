#include <algorithm>

#include "compiler/lsp/features.h"

namespace flowc::lsp {

Snapshot::Snapshot(const Document& document)
    : document(document),
      current(*document.current),
      lines(document.text),
      tokens(parse::Lex(*document.current->file)),
      view(document.OutlineView()) {}

const Occurrence* Snapshot::OccurrenceAt(size_t offset, Span* span) const {
  if (view.analysis == nullptr) return nullptr;
  std::optional<uint32_t> old = view.map.Unmap(static_cast<uint32_t>(offset));
  if (!old) return nullptr;
  const std::vector<Occurrence>& all = view.analysis->outline.occurrences;
  // The last occurrence starting at or before the offset; a cursor right after a name is on it.
  auto it = std::upper_bound(all.begin(), all.end(), *old,
                             [](uint32_t at, const Occurrence& o) { return at < o.span.offset; });
  if (it == all.begin()) return nullptr;
  const Occurrence& found = *(it - 1);
  if (*old > found.span.end()) return nullptr;
  std::optional<Span> moved = view.Map(found.span);
  if (!moved) return nullptr;
  *span = *moved;
  return &found;
}

std::vector<Span> Snapshot::OccurrencesOf(SymbolKind kind, const std::string& name,
                                          bool include_declaration) const {
  std::vector<Span> spans;
  if (view.analysis == nullptr) return spans;
  for (const Occurrence& o : view.analysis->outline.occurrences) {
    if (o.kind != kind || o.name != name || (o.declaration && !include_declaration)) continue;
    if (std::optional<Span> moved = view.Map(o.span)) spans.push_back(*moved);
  }
  return spans;
}

nlohmann::json Snapshot::Location(Span span) const {
  return {{"uri", document.uri}, {"range", lines.Range(span.offset, span.length)}};
}

}  // namespace flowc::lsp
