// The parse stage: text of a .flow file -> AST.
//
// Runs the ANTLR4-generated lexer and parser (grammar/), reports lexical and
// syntax errors to the diagnostics engine with line and column, and turns the
// parse tree into ast::Flow. No ANTLR type crosses this header.
#ifndef FLOWC_PARSE_PARSE_H_
#define FLOWC_PARSE_PARSE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/parse/ast.h"

namespace flowc::parse {

// Parses `file`. Returns the AST when the file is free of syntax errors;
// otherwise every error found is reported and nullopt returned.
std::optional<ast::Flow> Parse(const diag::SourceFile& file, diag::Diagnostics& diagnostics);

// One token of the text, as grammar/FlowLexer.g4 makes it, whitespace and comments included.
struct Token {
  enum class Kind : uint8_t {
    kFlow, kStep, kParam, kNext, kForeach, kRun, kTrue, kFalse, kNull,
    kAt, kLParen, kRParen, kLBrace, kRBrace, kLBrack, kRBrack, kComma, kColon, kEquals,
    kRawString, kString, kUnterminatedString, kNumber, kIdent,
    kComment, kWhitespace,
    kError,  // a character no rule takes, or the rest of a file from its first invalid UTF-8
  };
  Kind kind;
  diag::SourceRange range;

  bool is_trivia() const { return kind == Kind::kComment || kind == Kind::kWhitespace; }
};

// Every token of `file`, in order, covering its whole text but a leading byte order mark:
// what the parser reads, plus the whitespace and comments it skips. Never fails and reports
// nothing: text that is not a token of the language comes back as kError or
// kUnterminatedString tokens (Parse says what is wrong with them). For the formatter and the
// language server, which need the comments and must work on text that does not parse.
std::vector<Token> Lex(const diag::SourceFile& file);

}  // namespace flowc::parse

#endif  // FLOWC_PARSE_PARSE_H_
