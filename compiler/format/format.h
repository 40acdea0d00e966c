// The formatter: the one canonical layout of a .flow file (docs/formatting.md).
//
// Format lays out the tokens and comments of a file that parses (parse::Lex, the same lexer the
// parser reads) with a small recursive printer: items one a line, groups ((), [], {}) on one
// line when they fit in 100 columns and one element a line otherwise. The layout depends on the
// tokens, the comments and the blank lines between items only, so formatting is idempotent and
// never changes a token. Used by `flowc fmt` (compiler/driver/fmt_command.h) and by the language
// server's textDocument/formatting.
#ifndef FLOWC_FORMAT_FORMAT_H_
#define FLOWC_FORMAT_FORMAT_H_

#include <optional>
#include <string>

#include "compiler/diag/diagnostics.h"
#include "compiler/diag/source.h"

namespace flowc::format {

// The canonical layout of `file` (docs/formatting.md). Returns nullopt after reporting the
// file's syntax errors to `diagnostics` (exactly what parse::Parse reports).
std::optional<std::string> Format(const diag::SourceFile& file, diag::Diagnostics& diagnostics);

}  // namespace flowc::format

#endif  // FLOWC_FORMAT_FORMAT_H_
