// The flow lexer: grammar/FlowLexer.g4's DFA, built at build time by grammar/lexer_dfa_gen.cc
// with ANTLR's own simulator, run from tables. Private to compiler/parse, whose parser reads
// its tokens.
//
// It makes the tokens ANTLR 4.9's Lexer and LexerATNSimulator make from the same grammar (the
// longest match, the first rule on a tie; runtime/src/Lexer.cpp and atn/LexerATNSimulator.cpp:
// execATN, failOrAccept), with the same indexes, lines and columns, without deserializing the
// lexer's ATN or building its DFA in every process (a third of a small compile's instructions:
// bench/STARTUP.md). It also does what grammar/FlowLexer.g4 leaves to code: a keyword is lexed
// as IDENT and gets its own type here, a STRING without its closing quote becomes
// UNTERMINATED_STRING, and WS and COMMENT are dropped unless the caller keeps them.
// tests/unit/parse_input_test.cc holds it to ANTLR's lexer of the grammar as it reads.
#ifndef FLOWC_PARSE_DFA_LEXER_H_
#define FLOWC_PARSE_DFA_LEXER_H_

#include <memory>
#include <string>
#include <string_view>

#include "antlr4-runtime.h"
#include "compiler/parse/fast_input.h"

namespace flowc::parse {

class DfaLexer : public antlr4::TokenSource {
 public:
  // Lexes `input`'s text from its current index. `keep_trivia`: also return WS and COMMENT
  // tokens (parse::Lex, for the formatter and the language server); the parser's lexer drops
  // them.
  explicit DfaLexer(Utf8Stream* input, bool keep_trivia = false);

  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override { return line_; }
  size_t getCharPositionInLine() override { return column_; }
  antlr4::CharStream* getInputStream() override { return input_; }
  std::string getSourceName() override { return input_->getSourceName(); }
  antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override {
    return antlr4::CommonTokenFactory::DEFAULT.get();
  }

 private:
  // The type of the longest token at byte_ (a code point in every case, as the grammar ends
  // in `ERROR_CHAR : .`), moving past it.
  size_t Match();

  Utf8Stream* input_;
  bool keep_trivia_;
  std::string_view text_;
  size_t byte_;     // where the next token starts, in text_
  size_t index_;    // the same in code points: a token's start and stop index count them
  size_t line_ = 1;
  size_t column_ = 0;  // in code points since the line's start
};

}  // namespace flowc::parse

#endif  // FLOWC_PARSE_DFA_LEXER_H_
