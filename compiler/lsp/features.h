// The language features, one file each group, all reading one Snapshot of a document.
//
// server.cc turns a request's JSON into a Snapshot and a byte offset, calls one of these, and
// sends what it returns (LSP result objects, positions already in UTF-16). A feature that
// refuses (a rename to a taken name) returns its reason in `error`.
#ifndef FLOWC_LSP_FEATURES_H_
#define FLOWC_LSP_FEATURES_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compiler/lsp/documents.h"
#include "compiler/lsp/position.h"
#include "compiler/parse/parse.h"

namespace flowc::lsp {

// One document as the features see it: its current text (analysed), its tokens, and the
// outline to answer from.
struct Snapshot {
  explicit Snapshot(const Document& document);

  const Document& document;
  const Analysis& current;
  LineIndex lines;
  std::vector<parse::Token> tokens;
  Document::View view;

  std::string_view text() const { return document.text; }
  // The occurrence of a step or param name at `offset`, moved into the current text.
  const Occurrence* OccurrenceAt(size_t offset, Span* span) const;
  // Every occurrence of the symbol (`kind`, `name`) that has a place in the current text.
  std::vector<Span> OccurrencesOf(SymbolKind kind, const std::string& name,
                                  bool include_declaration) const;
  nlohmann::json Location(Span span) const;
};

// diagnostics.cc: the publishDiagnostics params of the current analysis.
nlohmann::json PublishDiagnostics(const Document& document);
// The LSP Diagnostic of one flowc diagnostic.
nlohmann::json ToLspDiagnostic(const diag::Diagnostic& diagnostic, const std::string& uri,
                               const LineIndex& lines);

// hover.cc
nlohmann::json Hover(const Snapshot& snapshot, size_t offset);

// navigation.cc
nlohmann::json Definition(const Snapshot& snapshot, size_t offset);
nlohmann::json References(const Snapshot& snapshot, size_t offset, bool include_declaration);
nlohmann::json DocumentSymbols(const Snapshot& snapshot);

// completion.cc
nlohmann::json Completion(const Snapshot& snapshot, size_t offset);

// rename.cc
nlohmann::json PrepareRename(const Snapshot& snapshot, size_t offset, std::string* error);
nlohmann::json Rename(const Snapshot& snapshot, size_t offset, const std::string& new_name,
                      std::string* error);

// formatting.cc: the edit that makes the document `flowc fmt`'s output; none when it is
// formatted already or does not parse.
nlohmann::json Formatting(const Snapshot& snapshot);

// code_actions.cc
nlohmann::json CodeActions(const Snapshot& snapshot, size_t begin, size_t end);

}  // namespace flowc::lsp

#endif  // FLOWC_LSP_FEATURES_H_
