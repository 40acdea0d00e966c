// The parse stage: text of a .flow file -> AST.
//
// Runs the ANTLR4-generated lexer and parser (grammar/), reports lexical and
// syntax errors to the diagnostics engine with line and column, and turns the
// parse tree into ast::Flow. No ANTLR type crosses this header.
#ifndef FLOWC_PARSE_PARSE_H_
#define FLOWC_PARSE_PARSE_H_

#include <optional>

#include "compiler/diag/diagnostics.h"
#include "compiler/parse/ast.h"

namespace flowc::parse {

// Parses `file`. Returns the AST when the file is free of syntax errors;
// otherwise every error found is reported and nullopt returned.
std::optional<ast::Flow> Parse(const diag::SourceFile& file, diag::Diagnostics& diagnostics);

}  // namespace flowc::parse

#endif  // FLOWC_PARSE_PARSE_H_
