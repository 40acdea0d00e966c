// The analysis of one version of a document: what `flowc check` finds in it (the same
// stages, parse -> graph -> IR, with the same diagnostics), the IR when it lowers, and an
// outline of its names and where they are written, for navigation, rename and hover.
//
// Made by Analyze for each text the server analyses (documents.cc) and never changed after:
// the server keeps the latest one, the latest that parsed and the latest that lowered, and
// answers from them. The AST itself is not kept: the outline holds what the features read.
#ifndef FLOWC_LSP_ANALYSIS_H_
#define FLOWC_LSP_ANALYSIS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/diag/source.h"
#include "compiler/ir/ir.h"

namespace flowc::lsp {

// Bytes [offset, offset + length) of the analysed text.
struct Span {
  uint32_t offset = 0;
  uint32_t length = 0;
  uint32_t end() const { return offset + length; }
};

enum class SymbolKind { kFlow, kParam, kStep };

// A flow, param or step: its name, where the name is written, and the whole declaration.
struct Symbol {
  SymbolKind kind;
  std::string name;
  Span name_span;
  Span span;
  std::string type;                     // a param's type as written; "" when inferred
  std::string default_text;             // a param's default as written; "" for none
  std::vector<std::string> decorators;  // a step's or the flow's, by name
};

// Where a step or param name is written: its declaration, a `next` target, a `foreach`
// source, a `{{reference}}` in a run string. The span is the name alone.
struct Occurrence {
  SymbolKind kind;
  std::string name;
  Span span;
  bool declaration = false;
};

struct Outline {
  std::optional<Symbol> flow;
  std::vector<Symbol> params;
  std::vector<Symbol> steps;
  std::vector<Occurrence> occurrences;  // in text order

  const Symbol* Find(SymbolKind kind, const std::string& name) const;
};

struct Analysis {
  std::unique_ptr<diag::SourceFile> file;  // the text analysed; diagnostics point into it
  diag::Diagnostics diagnostics;           // exactly `flowc check`'s, in its order
  bool parsed = false;                     // false: a syntax error; `outline` is empty
  Outline outline;
  std::optional<ir::Flow> ir;  // when the flow checks
  // What each target reports about the IR (its capability checks and its own): found on the
  // first hover of a step, for "which targets can express it", by pod_summary.cc.
  mutable std::vector<std::pair<std::string, diag::Diagnostics>> target_checks;

  const std::string& text() const { return file->text(); }
};

// Analyses `text`, a document read from `path` (where its @code files are found).
std::shared_ptr<const Analysis> Analyze(std::string path, std::string text);

}  // namespace flowc::lsp

#endif  // FLOWC_LSP_ANALYSIS_H_
