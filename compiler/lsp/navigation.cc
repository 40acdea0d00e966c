#include "compiler/lsp/features.h"

namespace flowc::lsp {
namespace {

nlohmann::json SymbolJson(const Snapshot& snapshot, const Symbol& symbol, int kind,
                          const std::string& detail) {
  std::optional<Span> name = snapshot.view.Map(symbol.name_span);
  std::optional<Span> whole = snapshot.view.Map(symbol.span);
  if (!name) return nullptr;
  if (!whole) whole = name;  // the edit touched the declaration, not its name
  return {{"name", symbol.name},
          {"detail", detail},
          {"kind", kind},
          {"range", snapshot.lines.Range(whole->offset, whole->length)},
          {"selectionRange", snapshot.lines.Range(name->offset, name->length)}};
}

// LSP SymbolKind values.
constexpr int kModule = 2;
constexpr int kFunction = 12;
constexpr int kVariable = 13;

}  // namespace

nlohmann::json Definition(const Snapshot& snapshot, size_t offset) {
  Span at;
  const Occurrence* occurrence = snapshot.OccurrenceAt(offset, &at);
  if (occurrence == nullptr) return nullptr;
  const Symbol* symbol = snapshot.view.analysis->outline.Find(occurrence->kind, occurrence->name);
  if (symbol == nullptr) return nullptr;
  std::optional<Span> name = snapshot.view.Map(symbol->name_span);
  if (!name) return nullptr;
  return snapshot.Location(*name);
}

nlohmann::json References(const Snapshot& snapshot, size_t offset, bool include_declaration) {
  Span at;
  const Occurrence* occurrence = snapshot.OccurrenceAt(offset, &at);
  if (occurrence == nullptr) return nullptr;
  nlohmann::json out = nlohmann::json::array();
  for (Span span :
       snapshot.OccurrencesOf(occurrence->kind, occurrence->name, include_declaration)) {
    out.push_back(snapshot.Location(span));
  }
  return out;
}

nlohmann::json DocumentSymbols(const Snapshot& snapshot) {
  nlohmann::json out = nlohmann::json::array();
  const Analysis* analysis = snapshot.view.analysis;
  if (analysis == nullptr || !analysis->outline.flow) return out;
  const Outline& outline = analysis->outline;
  nlohmann::json flow = SymbolJson(snapshot, *outline.flow, kModule, "flow");
  if (flow.is_null()) return out;
  if (!snapshot.view.Map(outline.flow->span)) {  // an edit inside: the flow runs to the end
    std::optional<Span> name = snapshot.view.Map(outline.flow->name_span);
    flow["range"] = snapshot.lines.Range(name->offset, snapshot.text().size() - name->offset);
  }
  nlohmann::json children = nlohmann::json::array();
  for (const Symbol& param : outline.params) {
    std::string detail = "param" + (param.type.empty() ? "" : ": " + param.type) +
                         (param.default_text.empty() ? "" : " = " + param.default_text);
    nlohmann::json symbol = SymbolJson(snapshot, param, kVariable, detail);
    if (!symbol.is_null()) children.push_back(std::move(symbol));
  }
  for (const Symbol& step : outline.steps) {
    std::string detail = "step";
    for (const std::string& d : step.decorators) detail += " @" + d;
    nlohmann::json symbol = SymbolJson(snapshot, step, kFunction, detail);
    if (!symbol.is_null()) children.push_back(std::move(symbol));
  }
  flow["children"] = std::move(children);
  out.push_back(std::move(flow));
  return out;
}

}  // namespace flowc::lsp
