// Unit tests of the language server's pieces: the framing of messages, positions in UTF-16,
// what the cursor's place asks for, the decorator table's documentation, and the server's
// dispatch on messages held in memory. tests/lsp/ drives the real binary with VS Code's
// protocol library.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compiler/graph/decorator_table.h"
#include "compiler/lsp/context.h"
#include "compiler/lsp/documents.h"
#include "compiler/lsp/features.h"
#include "compiler/lsp/jsonrpc.h"
#include "compiler/lsp/position.h"
#include "compiler/lsp/server.h"

namespace flowc::lsp {
namespace {

using nlohmann::json;

std::vector<std::string> Bodies(FrameReader& reader) {
  std::vector<std::string> out;
  while (std::optional<std::string> body = reader.Next()) out.push_back(*body);
  return out;
}

TEST_CASE("lsp framing: whole messages in any pieces, bad headers skipped") {
  FrameReader reader;
  std::string two = "Content-Length: 2\r\n\r\n{}content-length:3\r\nContent-Type: x\r\n\r\n[1]";
  for (char c : two) reader.Feed(std::string(1, c));  // a byte at a time
  CHECK(Bodies(reader) == std::vector<std::string>{"{}", "[1]"});
  CHECK(reader.skipped() == 0);

  FrameReader bad;
  bad.Feed("Content-Length: x\r\n\r\n{}");           // not a number
  bad.Feed("garbage\r\n\r\n");                       // no Content-Length
  bad.Feed("{\"a\":1}Content-Length: 2\r\n\r\n{}");  // a body whose header was bad, then a good one
  CHECK(Bodies(bad) == std::vector<std::string>{"{}"});
  CHECK(bad.skipped() == 3);

  FrameReader endless;
  endless.Feed(std::string(FrameReader::kMaxHeader + 10, 'x'));
  CHECK(Bodies(endless).empty());
  endless.Feed("\r\n\r\nContent-Length: 1\r\n\r\n7");
  CHECK(Bodies(endless) == std::vector<std::string>{"7"});

  FrameReader waiting;
  waiting.Feed("Content-Length: 5\r\n\r\n{}");
  CHECK(Bodies(waiting).empty());
  CHECK(waiting.pending());
  waiting.Feed("   ");
  CHECK(Bodies(waiting) == std::vector<std::string>{"{}   "});
}

TEST_CASE("lsp framing: Frame writes the length in bytes, and bad UTF-8 as U+FFFD") {
  CHECK(Frame(json{{"a", "é"}}) == "Content-Length: 10\r\n\r\n{\"a\":\"é\"}");
  CHECK(Frame(json("\xff")) == "Content-Length: 5\r\n\r\n\"\xEF\xBF\xBD\"");
}

TEST_CASE("lsp positions: UTF-16 code units, not bytes or code points") {
  std::string text = "é😀x\r\nab\n";
  LineIndex lines(text);
  // é is 2 bytes and 1 unit; 😀 is 4 bytes and 2 units.
  CHECK(lines.PositionOf(0) == Position{0, 0});
  CHECK(lines.PositionOf(2) == Position{0, 1});
  CHECK(lines.PositionOf(6) == Position{0, 3});
  CHECK(lines.PositionOf(7) == Position{0, 4});  // before the "\r"
  CHECK(lines.PositionOf(9) == Position{1, 0});
  CHECK(lines.PositionOf(4) == Position{0, 1});  // inside 😀: its start
  CHECK(lines.OffsetOf({0, 3}) == 6);
  CHECK(lines.OffsetOf({0, 2}) == 2);   // inside the surrogate pair: the character's start
  CHECK(lines.OffsetOf({0, 99}) == 7);  // past the end of the line: its end, before "\r\n"
  CHECK(lines.OffsetOf({1, 1}) == 10);
  CHECK(lines.OffsetOf({7, 0}) == text.size());
  CHECK(lines.Range(2, 5) ==
        json::parse(R"({"start":{"line":0,"character":1},"end":{"line":0,"character":4}})"));
}

TEST_CASE("lsp documents: incremental changes in UTF-16 ranges, and TextMap") {
  DocumentStore store;
  Document& doc = store.Open("file:///w/a%20b.flow", "é😀 x\nyz", 1);
  CHECK(doc.path == "/w/a b.flow");
  json changes = json::parse(
      R"([{"range":{"start":{"line":0,"character":4},"end":{"line":0,"character":5}},"text":"Z"},
                                 {"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":1}},"text":""}])");
  CHECK(store.Change(doc, changes, 2));
  CHECK(doc.text == "é😀 Z\nz");
  CHECK(store.Change(doc, json::parse(R"([{"text":"whole"}])"), 3));
  CHECK(doc.text == "whole");
  CHECK_FALSE(store.Change(doc, json::parse(R"([{"range":1}])"), 4));

  TextEdit diff = TextMap::Diff("step foo {", "step foox {");
  CHECK((diff.begin == 8 && diff.end == 8 && diff.inserted == 1));
  TextMap map({diff});
  CHECK(map.Map(Span{0, 4})->offset == 0);       // "step": before the edit, a byte to spare
  CHECK_FALSE(map.Map(Span{5, 3}).has_value());  // "foo" became "foox": no place
  CHECK(map.Map(Span{9, 1})->offset == 10);      // "{" moved on by one
  CHECK(*map.Unmap(10) == 9);
  CHECK(*map.Unmap(8) == 8);  // before the "x" typed: where it was typed
  CHECK_FALSE(TextMap({TextEdit{8, 8, 3}}).Unmap(9).has_value());  // inside what was typed
  // Two edits far apart: what lies between them moves with the first.
  TextMap two({TextEdit{2, 4, 0}, TextEdit{10, 10, 3}});  // "ab[cd]efghijkl" then 3 at 10
  CHECK(two.Map(Span{6, 2})->offset == 4);
  CHECK(two.Map(Span{14, 1})->offset == 15);
  CHECK_FALSE(two.Map(Span{11, 1}).has_value());
}

// The context at the `|` of `marked`.
CursorContext ContextOf(std::string marked) {
  size_t cursor = marked.find('|');
  marked.erase(cursor, 1);
  diag::SourceFile file("t.flow", marked);
  return CompletionContext(parse::Lex(file), marked, cursor);
}

TEST_CASE("lsp completion contexts from the tokens of text that does not parse") {
  using Kind = CursorContext::Kind;
  CHECK(ContextOf("@|").kind == Kind::kDecoratorName);
  CHECK(ContextOf("flow f { @kub|").kind == Kind::kDecoratorName);
  CHECK(ContextOf("flow f { @kub|").word_begin == 10);

  CursorContext args = ContextOf("@kubernetes(cpu=1, image=\"x\", |) flow f {");
  CHECK(args.kind == Kind::kArgumentName);
  CHECK(args.decorator == "kubernetes");
  CHECK(args.given == std::vector<std::string>{"cpu", "image"});
  CHECK(ContextOf("@retry(|").kind == Kind::kArgumentName);
  CHECK(ContextOf("@kubernetes(labels={\"a\": \"b\", |").kind == Kind::kNone);  // inside a map
  CHECK(ContextOf("@kubernetes(cpu=|").kind == Kind::kNone);                    // a value

  CursorContext next = ContextOf("step a { run \"x\" next b, c, |");
  CHECK(next.kind == Kind::kNextTarget);
  CHECK(next.given == std::vector<std::string>{"b", "c"});
  CHECK(next.step == "a");
  CHECK(ContextOf("step a { next |").kind == Kind::kNextTarget);
  CHECK(ContextOf("step a { next en|").word_begin == 14);

  CursorContext ref = ContextOf("step s { run \"echo {{ep|");
  CHECK(ref.kind == Kind::kReference);
  CHECK(ref.step == "s");
  CHECK(ref.word_begin == 21);
  CHECK(ContextOf("step s { run [\"a\", \"{{|\"] }").kind == Kind::kReference);
  CHECK(ContextOf("step s { run \"{{x}} |\" }").kind == Kind::kNone);
  CHECK(ContextOf("@environment(vars={\"A\": \"{{|\"})").kind == Kind::kNone);  // not a run
  CHECK(ContextOf("# @|").kind == Kind::kNone);                                 // a comment
}

TEST_CASE("lsp: every decorator and argument of the table is documented") {
  for (const graph::decorator_table::DecoratorSpec& spec : graph::decorator_table::Table()) {
    CAPTURE(spec.name);
    CHECK_FALSE(spec.doc.empty());
    for (const graph::decorator_table::ArgSpec& arg : spec.args) {
      CAPTURE(arg.name);
      CHECK_FALSE(arg.doc.empty());
    }
  }
}

TEST_CASE("lsp: a diagnostic links to its code's section of docs/diagnostics.md") {
  diag::SourceFile file("x.flow", "flow f {}\n");
  diag::Diagnostics d;
  d.Report(diag::Code::kMissingStart, &file, file.RangeAt(5, 1), "no start");
  json published = ToLspDiagnostic(d.all()[0], "file:///x.flow", LineIndex(file.text()));
  CHECK(published["code"] == "E012");
  CHECK(published["codeDescription"] ==
        json{{"href", "https://github.com/flowc/flowc/blob/main/docs/diagnostics.md#e012"}});
  CHECK(published["codeDescription"]["href"] == diag::HelpUri(diag::Code::kMissingStart));
}

struct Client {
  std::vector<json> sent;
  Server server{[this](const json& m) { sent.push_back(m); }};
};

TEST_CASE("lsp server: the life cycle and its error codes") {
  Client c;
  c.server.HandleBody("{not json");
  CHECK(
      c.sent.back() ==
      json::parse(
          R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"the message is not JSON"}})"));
  c.server.Handle({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "textDocument/hover"}});
  CHECK(c.sent.back()["error"]["code"] == -32002);
  c.server.Handle(
      {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "initialize"}, {"params", json::object()}});
  CHECK(c.sent.back()["result"]["capabilities"]["positionEncoding"] == "utf-16");
  c.server.Handle({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "no/such"}});
  CHECK(c.sent.back()["error"]["code"] == -32601);
  size_t before = c.sent.size();
  c.server.Handle({{"jsonrpc", "2.0"}, {"method", "no/such"}});  // a notification: ignored
  CHECK(c.sent.size() == before);
  c.server.Handle({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "textDocument/hover"}, {"params", 7}});
  CHECK(c.sent.back()["result"].is_null());
  c.server.Handle({{"jsonrpc", "2.0"}, {"id", 5}, {"method", "shutdown"}});
  CHECK(c.sent.back()["result"].is_null());
  CHECK_FALSE(c.server.exited());
  c.server.Handle({{"jsonrpc", "2.0"}, {"method", "exit"}});
  CHECK(c.server.exit_status() == 0);

  Client quitter;
  quitter.server.Handle({{"jsonrpc", "2.0"}, {"method", "exit"}});
  CHECK(quitter.server.exit_status() == 1);
}

}  // namespace
}  // namespace flowc::lsp
