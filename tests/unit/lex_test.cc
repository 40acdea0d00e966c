#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "compiler/parse/parse.h"

namespace flowc {
namespace {

using Kind = parse::Token::Kind;

struct Lexed {
  std::vector<Kind> kinds;
  std::vector<std::string> texts;
};

Lexed LexText(const std::string& text) {
  diag::SourceFile file("t.flow", text);
  Lexed out;
  for (const parse::Token& t : parse::Lex(file)) {
    out.kinds.push_back(t.kind);
    out.texts.push_back(text.substr(t.range.offset, t.range.length));
  }
  return out;
}

TEST_CASE("lex: every token, whitespace and comments included, covers the text in order") {
  std::string text = "@k(a=1) # c \"x\n flow f { run \"#no\" next end }\n";
  Lexed lexed = LexText(text);
  std::string joined;
  for (const std::string& t : lexed.texts) joined += t;
  CHECK(joined == text);
  CHECK(lexed.kinds == std::vector<Kind>{
                           Kind::kAt, Kind::kIdent, Kind::kLParen, Kind::kIdent, Kind::kEquals,
                           Kind::kNumber, Kind::kRParen, Kind::kWhitespace, Kind::kComment,
                           Kind::kWhitespace, Kind::kFlow, Kind::kWhitespace, Kind::kIdent,
                           Kind::kWhitespace, Kind::kLBrace, Kind::kWhitespace, Kind::kRun,
                           Kind::kWhitespace, Kind::kString, Kind::kWhitespace, Kind::kNext,
                           Kind::kWhitespace, Kind::kIdent, Kind::kWhitespace, Kind::kRBrace,
                           Kind::kWhitespace});
  CHECK(lexed.texts[8] == "# c \"x");
  CHECK(lexed.texts[18] == "\"#no\"");
}

TEST_CASE("lex: ranges carry lines and columns in code points") {
  diag::SourceFile file("t.flow", "# é\n  \"\"\"a\nb\"\"\" x");
  std::vector<parse::Token> tokens = parse::Lex(file);
  REQUIRE(tokens.size() == 5);
  CHECK(tokens[2].kind == Kind::kRawString);
  CHECK(tokens[2].range.line == 2);
  CHECK(tokens[2].range.column == 3);
  CHECK(tokens[4].kind == Kind::kIdent);
  CHECK(tokens[4].range.line == 3);
  CHECK(tokens[4].range.column == 6);
}

TEST_CASE("lex: bad text becomes error tokens, never a failure") {
  Lexed lexed = LexText("flow 'x \"open\n$");
  CHECK(lexed.kinds == std::vector<Kind>{Kind::kFlow, Kind::kWhitespace, Kind::kError,
                                         Kind::kIdent, Kind::kWhitespace,
                                         Kind::kUnterminatedString, Kind::kWhitespace,
                                         Kind::kError});
  // From the first invalid UTF-8 byte on, the rest is one error token.
  Lexed invalid = LexText("flow \xff\xfe x");
  CHECK(invalid.kinds == std::vector<Kind>{Kind::kFlow, Kind::kWhitespace, Kind::kError});
  CHECK(invalid.texts.back() == "\xff\xfe x");
  // A byte order mark is no token.
  Lexed bom = LexText("\xEF\xBB\xBF" "flow");
  CHECK(bom.kinds == std::vector<Kind>{Kind::kFlow});
  CHECK(bom.texts[0] == "flow");
  CHECK(LexText("").kinds.empty());
}

}  // namespace
}  // namespace flowc
