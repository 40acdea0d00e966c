// The parser's input path against ANTLR's own: Utf8Stream (compiler/parse/fast_input.h) and
// DfaLexer (compiler/parse/dfa_lexer.h) must give exactly the tokens that ANTLRInputStream and
// LexerATNSimulator give with the lexer grammar as it was before the lexer typed keywords and
// unterminated strings in code (tests/unit/reference/ReferenceFlowLexer.g4).
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "compiler/diag/source.h"
#include "compiler/parse/dfa_lexer.h"
#include "compiler/parse/fast_input.h"
#include "compiler/parse/tree_to_ast.h"
#include "FlowLexer.h"
#include "ReferenceFlowLexer.h"

namespace flowc::parse {
namespace {

struct Lexed {
  size_t type, start, stop, line, column;
  std::string text;
  bool operator==(const Lexed& o) const {
    return type == o.type && start == o.start && stop == o.stop && line == o.line &&
           column == o.column && text == o.text;
  }
};

std::ostream& operator<<(std::ostream& out, const Lexed& t) {
  return out << t.type << "@" << t.start << ".." << t.stop << " " << t.line << ":" << t.column
             << " '" << t.text << "'";
}

std::vector<Lexed> Lex(antlr4::TokenSource& lexer) {
  std::vector<Lexed> out;
  for (;;) {
    std::unique_ptr<antlr4::Token> t = lexer.nextToken();
    out.push_back({t->getType(), t->getStartIndex(), t->getStopIndex(), t->getLine(),
                   t->getCharPositionInLine(), t->getText()});
    if (t->getType() == antlr4::Token::EOF) return out;
  }
}

// A lexer of the former grammar (tests/unit/reference/ReferenceFlowLexer.g4), on ANTLR's own
// input stream and simulator.
class ReferenceLexer {
 public:
  explicit ReferenceLexer(const std::string& text) : input_(text), lexer_(&input_) {
    lexer_.removeErrorListeners();
  }
  antlr4::Lexer& lexer() { return lexer_; }

 private:
  antlr4::ANTLRInputStream input_;
  flowc_reference::ReferenceFlowLexer lexer_;
};

// Lexes `text` both ways and compares every token.
void CheckSameTokens(const std::string& text) {
  CAPTURE(text);
  ReferenceLexer reference_lexer(text);
  antlr4::Lexer& reference = reference_lexer.lexer();
  std::vector<Lexed> expected = Lex(reference);
  // The grammar makes these; DfaLexer drops them, as `-> skip` did.
  expected.erase(std::remove_if(expected.begin(), expected.end(),
                                [](const Lexed& t) {
                                  return t.type == flowc_grammar::FlowLexer::WS ||
                                         t.type == flowc_grammar::FlowLexer::COMMENT;
                                }),
                 expected.end());

  diag::SourceFile file("t.flow", text);
  TokenLocator locator(file);
  Utf8Stream input(file.text(), locator.byte_of_codepoint());
  DfaLexer dfa(&input);
  std::vector<Lexed> actual = Lex(dfa);
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) CHECK(actual[i] == expected[i]);

  // TokenLocator takes a token's line and column from the lexer: they are SourceFile's.
  input.seek(0);
  DfaLexer again(&input);
  for (std::unique_ptr<antlr4::Token> t = again.nextToken(); t->getType() != antlr4::Token::EOF;
       t = again.nextToken()) {
    diag::SourceRange range = locator.Range(t.get());
    diag::SourceRange searched = file.RangeAt(range.offset, range.length);
    CHECK(range.line == searched.line);
    CHECK(range.column == searched.column);
  }
}

TEST_CASE("parse input: the same tokens as ANTLRInputStream and LexerATNSimulator") {
  for (const char* text : {
           "",
           "flow f {\n  step start { run \"echo hi\" next end }\n  step end { run \"x\" }\n}\n",
           "@kubernetes(cpu=0.5, labels={\"a\": \"b\"}) # comment\n",
           "run \"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x9A\x80\" # \xC3\xA9\n",  // 2-, 3-, 4-byte
           "step \xC3\xA9t\xC3\xA9 { }",                                    // stray non-ASCII
           "\"unterminated \xE2\x82\xAC\nnext",
           "\"\"\"raw\n\xF0\x9F\x9A\x80\n\"\"\" -1.5e3 ; ' -",
           // Keywords, their prefixes and longer names; strings closed, escaped, left open.
           "flow flows flo steps foreach_ for run_ trueish null _null FALSE False\n",
           "\"\" \"\\\"\" \"\\\\\" \"\\\\\\\"\n\"\\\"\n\"a\\\n\"\"\"\"\n\"",
       }) {
    CheckSameTokens(text);
  }
}

TEST_CASE("parse input: random texts lex the same either way") {
  // Fragments that make every token type, partial tokens, and non-ASCII characters.
  const std::vector<std::string> pieces = {
      "flow", "step", "param", "next", "foreach", "run", "true", "false", "null", "@", "(",
      ")", "{", "}", "[", "]", ",", ":", "=", "\"\"\"", "\"", "\\", "\\\"", "#", "\n", "\r",
      "\t", " ", "-", "1", "2.5", "e", "E+", "_x", "abc", "'", ";", "\xC3\xA9", "\xE2\x82\xAC",
      "\xF0\x9F\x9A\x80", "\xEF\xBB\xBF"};
  std::mt19937 random(15);
  for (int i = 0; i < 400; ++i) {
    std::string text;
    int n = static_cast<int>(random() % 40);
    for (int j = 0; j < n; ++j) text += pieces[random() % pieces.size()];
    // A leading byte order mark is the one place the two differ (the next test case).
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.insert(0, " ");
    CheckSameTokens(text);
  }
}

TEST_CASE("parse input: a byte order mark is skipped but keeps its index") {
  // ANTLRInputStream drops it, so its indexes are one short of the file's code points;
  // Utf8Stream keeps the file's, which TokenLocator maps to bytes.
  std::string text = "\xEF\xBB\xBF" "flow \xC3\xA9";
  diag::SourceFile file("t.flow", text);
  TokenLocator locator(file);
  Utf8Stream input(file.text(), locator.byte_of_codepoint());
  CHECK(input.index() == 1);
  CHECK(input.size() == 7);
  CHECK(input.LA(1) == 'f');
  CHECK(input.LA(-1) == antlr4::IntStream::EOF);
  input.seek(0);
  CHECK(input.index() == 1);
  input.seek(6);
  CHECK(input.LA(1) == 0xE9);
  CHECK(input.LA(-1) == ' ');
  CHECK(input.getText(antlr4::misc::Interval(size_t{1}, size_t{6})) == "flow \xC3\xA9");
  CHECK(input.toString() == "flow \xC3\xA9");
  input.consume();
  CHECK(input.LA(1) == antlr4::IntStream::EOF);
  CHECK_THROWS_AS(input.consume(), antlr4::IllegalStateException);
  input.seek(1);
  DfaLexer lexer(&input);
  std::unique_ptr<antlr4::Token> flow = lexer.nextToken();
  CHECK(flow->getStartIndex() == 1);
  CHECK(locator.Range(flow.get()).offset == 3);
  CHECK(locator.Range(flow.get()).column == 1);
}

TEST_CASE("parse input: every character, alone and after every token's start") {
  // Each ASCII character and a few beyond, after each character that starts a token: every
  // edge out of the DFA's states that a token's first character reaches.
  std::vector<std::string> characters;
  for (int c = 1; c < 128; ++c) characters.emplace_back(1, static_cast<char>(c));
  for (const char* c : {"\xC2\xA0", "\xE2\x80\xA8", "\xEF\xBB\xBF", "\xF0\x9F\x9A\x80"}) {
    characters.emplace_back(c);
  }
  for (const std::string& first : characters) {
    std::string text = " ";  // a leading byte order mark is the one place the two differ
    for (const std::string& second : characters) text += first + second + " ";
    CheckSameTokens(text);
  }
}

}  // namespace
}  // namespace flowc::parse
