#include <doctest/doctest.h>

#include "compiler/parse/parse.h"
#include "compiler/parse/strings.h"
#include "test_util.h"

namespace flowc {
namespace {

std::optional<ast::Flow> ParseText(const std::string& text, diag::Diagnostics& d,
                                   std::unique_ptr<diag::SourceFile>& file) {
  file = std::make_unique<diag::SourceFile>("t.flow", text);
  return parse::Parse(*file, d);
}

TEST_CASE("parse: a whole flow becomes the AST, with ranges") {
  diag::Diagnostics d;
  std::unique_ptr<diag::SourceFile> file;
  auto flow = ParseText(
      "# c\n@kubernetes(cpu=0.5, labels={\"a\": \"b\",}, x=[1, -2, 1e3, true, false, null])\n"
      "flow f {\n  param n: int = 3\n  param xs = [\"a\"]\n"
      "  @retry step start { run [\"a\", \"b\"] next s foreach xs }\n"
      "  step s { run \"x\" next end }\n  step end { run \"\"\"raw\\n\"\"\" }\n}\n",
      d, file);
  REQUIRE(flow);
  CHECK(d.all().empty());
  CHECK(flow->name.name == "f");
  CHECK(flow->name.range.line == 3);
  CHECK(flow->name.range.column == 6);
  REQUIRE(flow->decorators.size() == 1);
  const ast::Decorator& k = flow->decorators[0];
  CHECK(k.arguments[0].value.kind == ast::Value::Kind::kFloat);
  CHECK(k.arguments[0].value.float_value == 0.5);
  CHECK(k.arguments[1].value.entries[0].key == "a");
  const auto& items = k.arguments[2].value.items;
  CHECK(items[1].int_value == -2);
  CHECK(items[2].kind == ast::Value::Kind::kFloat);
  CHECK(items[3].bool_value);
  CHECK(items[5].kind == ast::Value::Kind::kNull);
  REQUIRE(flow->params.size() == 2);
  CHECK(flow->params[0].type->name == "int");
  CHECK_FALSE(flow->params[1].type);
  REQUIRE(flow->steps.size() == 3);
  CHECK(flow->steps[0].decorators[0].name.name == "retry");
  CHECK(flow->steps[0].nexts[0].foreach_param->name == "xs");
  CHECK(flow->steps[0].runs[0].command.items.size() == 2);
  CHECK(flow->steps[2].runs[0].command.string == "raw\\n");
  CHECK(flow->steps[2].runs[0].command.raw);
  // The flow's range spans the file from its first token (the decorator) to its end (a
  // rule that matched EOF stops at EOF: ANTLR's Parser::exitRule), as the whole-file
  // parse's did.
  CHECK(flow->range.line == 2);
  CHECK(flow->range.column == 1);
  CHECK(flow->range.offset == 4);
  CHECK(flow->range.offset + flow->range.length == file->text().size());
}

TEST_CASE("parse: what the item-by-item parse meets late is reported as the whole file's") {
  // Each of these fails only after several items were parsed and freed: the diagnostics are
  // the whole-file parse's, once each, and nothing of the first attempt is left.
  std::string items;
  for (int i = 0; i < 50; ++i) items += "  step s" + std::to_string(i) + " { run \"x\" }\n";
  for (const auto& [tail_text, message_text] : std::vector<std::pair<std::string, std::string>>{
           {"  step bad { run \"a\\qb\" }\n}\n", "unknown escape"},
           {"  step bad { run \"x\" next }\n}\n", "expected identifier"},
           {"  step bad { run \"x\" }\n}\n;\n", "unexpected character ';'"},
           {"  step bad { run \"x }\n}\n", "unterminated string"},
           {"  step bad { run " + std::string(70, '[') + " }\n}\n", "nest deeper than 64"}}) {
    const std::string tail = tail_text;  // a copy: CAPTURE's lambda cannot take a binding
    const std::string message = message_text;
    CAPTURE(tail);
    auto c = testing::Analyze("flow f {\n" + items + tail);
    CHECK_FALSE(c->flow);
    const std::string errors = c->errors();
    CHECK(errors.find(message) != std::string::npos);
    CHECK(errors.find(message) == errors.rfind(message));
  }
  // A bad first token stops the item-by-item parse as its token stream is made (a fuzzer
  // found that this once escaped as an exception).
  auto c = testing::Analyze("&3 \n`");
  CHECK_FALSE(c->flow);
  CHECK(c->errors().find("unexpected character '&'") != std::string::npos);
}

TEST_CASE("parse: string escapes decode; raw strings keep every character") {
  parse::EscapeError error;
  CHECK(*parse::DecodeString(R"("a\"b\\c\nd\te\r\u{e9}\u{1F600}")", &error) ==
        "a\"b\\c\nd\te\r\xC3\xA9\xF0\x9F\x98\x80");
  CHECK(*parse::DecodeString("\"\"\"x\\n\"y\"\n\"\"\"", &error) == "x\\n\"y\"\n");
  CHECK_FALSE(parse::DecodeString(R"("\q")", &error));
  CHECK(error.offset == 1);
  CHECK_FALSE(parse::DecodeString(R"("\u{110000}")", &error));
  CHECK_FALSE(parse::DecodeString(R"("\u{}")", &error));
  CHECK_FALSE(parse::DecodeString(R"("\u41")", &error));
}

TEST_CASE("parse: a position in a decoded string maps back to its source column") {
  std::string_view token = R"("a\tb{{x}}")";
  // decoded "a\tb{{x}}": byte 3 is the first '{', written at token offset 4.
  CHECK(parse::SourceOffsetOf(token, 3) == 5);
  CHECK(parse::SourceOffsetOf(token, 0) == 1);
  CHECK(parse::SourceOffsetOf("\"\"\"ab\"\"\"", 1) == 4);
}

TEST_CASE("parse: invalid UTF-8 is found where it starts") {
  CHECK_FALSE(parse::FindInvalidUtf8("plain \xC3\xA9 \xF0\x9F\x98\x80"));
  CHECK(*parse::FindInvalidUtf8("ab\xC3") == 2);
  CHECK(*parse::FindInvalidUtf8("ab\xC0\xAF") == 2);  // overlong
  CHECK(*parse::FindInvalidUtf8("a\xED\xA0\x80") == 1);  // surrogate
  CHECK(*parse::FindInvalidUtf8(std::string("a\0b", 3)) == 1);
}

TEST_CASE("parse: syntax errors are reported with line and column, all of them") {
  auto c = testing::Analyze("flow f {\n  step start {\n    run \"a\"\n    nxt end\n  }\n}\n");
  CHECK_FALSE(c->flow);
  CHECK(c->errors() ==
        "t.flow:4:5: error: expected 'next', 'run' or '}', found 'nxt' [E001]\n"
        "    nxt end\n"
        "    ^~~\n");
}

TEST_CASE("parse: stray characters and unterminated strings are lexical errors") {
  auto c = testing::Analyze("flow f { step start { run 'x' } }\n");
  CHECK(c->errors().find("t.flow:1:27: error: unexpected character ''' [E002]") == 0);
  auto u = testing::Analyze("flow f {\n step start { run \"abc\n } }\n");
  CHECK(u->errors().find("t.flow:2:19: error: unterminated string [E003]") == 0);
}

TEST_CASE("parse: nesting deeper than the limit is refused, not a stack overflow") {
  std::string deep = "flow f { step start { run " + std::string(100000, '[') + " } }";
  auto c = testing::Analyze(deep);
  CHECK_FALSE(c->flow);
  CHECK(c->errors().find("values nest deeper than 64 levels") != std::string::npos);
}

TEST_CASE("parse: integers beyond 64 bits are an error") {
  auto c = testing::Analyze(testing::Linear("@kubernetes(cpu=99999999999999999999)", ""));
  CHECK(c->errors().find("integer '99999999999999999999' does not fit in 64 bits [E006]") !=
        std::string::npos);
}

}  // namespace
}  // namespace flowc
