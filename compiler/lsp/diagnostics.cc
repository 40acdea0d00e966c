#include "compiler/lsp/features.h"

namespace flowc::lsp {

nlohmann::json ToLspDiagnostic(const diag::Diagnostic& d, const std::string& uri,
                               const LineIndex& lines) {
  std::string message = d.message;
  nlohmann::json related = nlohmann::json::array();
  for (const diag::Note& note : d.notes) {
    if (note.range.valid()) {
      related.push_back(
          {{"location",
            {{"uri", uri}, {"range", lines.Range(note.range.offset, note.range.length)}}},
           {"message", note.message}});
    } else {
      message += "\nnote: " + note.message;  // a note without a place has no location to carry it
    }
  }
  if (!d.help.empty()) message += "\nhelp: " + d.help;
  nlohmann::json out = {
      {"range", lines.Range(d.range.offset, d.range.length)},
      {"severity", d.severity == diag::Severity::kError ? 1 : 2},
      {"code", std::string(diag::CodeString(d.code))},
      // The code's section of docs/diagnostics.md, as SARIF's helpUri (diag::HelpUri).
      {"codeDescription", {{"href", diag::HelpUri(d.code)}}},
      {"source", "flowc"},
      {"message", message},
  };
  if (!related.empty()) out["relatedInformation"] = std::move(related);
  return out;
}

nlohmann::json PublishDiagnostics(const Document& document) {
  nlohmann::json list = nlohmann::json::array();
  if (document.current) {
    LineIndex lines(document.text);
    for (const diag::Diagnostic& d : document.current->diagnostics.all()) {
      list.push_back(ToLspDiagnostic(d, document.uri, lines));
    }
  }
  return {{"uri", document.uri}, {"version", document.version}, {"diagnostics", std::move(list)}};
}

}  // namespace flowc::lsp
