#include <nlohmann/json.hpp>
#include <regex>

#include "compiler/lsp/features.h"

namespace flowc::lsp {
namespace {

// The replacement a diagnostic's help offers: "did you mean 'join'?" -> "join".
bool Suggestion(const std::string& help, std::string* replacement) {
  static const std::regex kDidYouMean("did you mean '([^']*)'\\?");
  std::smatch match;
  if (!std::regex_search(help, match, kDidYouMean)) return false;
  *replacement = match[1];
  return true;
}

// The edit that puts `replacement` where the diagnostic points: inside a `{{reference}}` only
// the name, a string literal stays quoted, a decorator keeps its one `@`.
bool Edit(std::string_view text, Span at, std::string replacement, Span* where, std::string* out) {
  std::string_view written = text.substr(at.offset, at.length);
  *where = at;
  if (written.substr(0, 2) == "{{") {
    size_t begin = 2;
    while (begin < written.size() && written[begin] == ' ') ++begin;
    size_t end = written.find_first_of(" }", begin);
    if (end == std::string_view::npos) return false;
    *where = Span{at.offset + static_cast<uint32_t>(begin), static_cast<uint32_t>(end - begin)};
  } else if (!written.empty() && written.front() == '"') {
    replacement = nlohmann::json(replacement).dump();
  } else if (!replacement.empty() && replacement.front() == '@' &&
             (written.empty() || written.front() != '@')) {
    replacement.erase(0, 1);
  }
  *out = std::move(replacement);
  return at.length > 0;
}

}  // namespace

nlohmann::json CodeActions(const Snapshot& snapshot, size_t begin, size_t end) {
  nlohmann::json actions = nlohmann::json::array();
  for (const diag::Diagnostic& d : snapshot.current.diagnostics.all()) {
    std::string replacement;
    if (!Suggestion(d.help, &replacement)) continue;
    Span at{d.range.offset, d.range.length};
    if (at.end() < begin || at.offset > end) continue;  // the request's range misses it
    Span where;
    std::string text;
    if (!Edit(snapshot.text(), at, replacement, &where, &text)) continue;
    nlohmann::json edit = {{"range", snapshot.lines.Range(where.offset, where.length)},
                           {"newText", text}};
    actions.push_back({
        {"title", "Replace with '" + replacement + "'"},
        {"kind", "quickfix"},
        {"isPreferred", true},
        {"diagnostics", {ToLspDiagnostic(d, snapshot.document.uri, snapshot.lines)}},
        {"edit", {{"changes", {{snapshot.document.uri, {std::move(edit)}}}}}},
    });
  }
  return actions;
}

}  // namespace flowc::lsp
