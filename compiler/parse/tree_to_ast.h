// Parse tree -> AST. Private to compiler/parse: the only header outside the
// generated code that names ANTLR's context types.
#ifndef FLOWC_PARSE_TREE_TO_AST_H_
#define FLOWC_PARSE_TREE_TO_AST_H_

#include <vector>

#include "FlowParser.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/parse/ast.h"

namespace flowc::parse {

// Maps ANTLR's code-point indexes to byte ranges of the source file.
class TokenLocator {
 public:
  explicit TokenLocator(const diag::SourceFile& file);
  diag::SourceRange Range(const antlr4::Token* start, const antlr4::Token* stop) const;
  diag::SourceRange Range(const antlr4::Token* token) const { return Range(token, token); }
  diag::SourceRange Range(antlr4::tree::TerminalNode* node) const {
    return Range(node->getSymbol());
  }
  diag::SourceRange Range(antlr4::ParserRuleContext* context) const {
    return Range(context->getStart(), context->getStop());
  }
  const diag::SourceFile& file() const { return file_; }
  // The byte offset of each code point, then of the end; empty when the text is ASCII.
  const std::vector<uint32_t>& byte_of_codepoint() const { return byte_of_codepoint_; }

 private:
  const diag::SourceFile& file_;
  std::vector<uint32_t> byte_of_codepoint_;  // empty when the text is ASCII
  size_t codepoints_;                        // in the text
};

// Builds the AST of a syntactically valid file. Reports bad escapes and
// out-of-range numbers (lexically valid, semantically not).
ast::Flow TreeToAst(flowc_grammar::FlowParser::FileContext& file, const TokenLocator& locator,
                    diag::Reporter& report);

// The same a piece at a time: the flow's name and decorators from its head, then each item
// into `flow` as it is parsed. The caller sets flow.range, which spans the whole file.
ast::Flow HeadToAst(flowc_grammar::FlowParser::FlowHeadContext& head, const TokenLocator& locator,
                    diag::Reporter& report);
void AddItemToAst(flowc_grammar::FlowParser::FlowItemContext& item, const TokenLocator& locator,
                  diag::Reporter& report, ast::Flow& flow);

}  // namespace flowc::parse

#endif  // FLOWC_PARSE_TREE_TO_AST_H_
