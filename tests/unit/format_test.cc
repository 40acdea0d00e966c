#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/format/format.h"
#include "compiler/parse/parse.h"
#include "tests/unit/format_oracle.h"

namespace flowc {
namespace {

std::string Format(const std::string& text) {
  diag::SourceFile file("t.flow", text);
  diag::Diagnostics diagnostics;
  std::optional<std::string> out = format::Format(file, diagnostics);
  REQUIRE_MESSAGE(out, diag::RenderText(diagnostics.all()));
  CHECK(diagnostics.all().empty());
  return *out;
}

// `text` formats to `expected`, which formats to itself.
void CheckFormat(const std::string& text, const std::string& expected) {
  CHECK(Format(text) == expected);
  CHECK(Format(expected) == expected);
}

// A flow around `items`, the body of the step `start` (which then goes to `end`).
std::string InStart(const std::string& items) {
  return "flow f {\n  step start {\n" + items + "  }\n  step end {\n    run \"e\"\n  }\n}\n";
}

TEST_CASE("format: items one a line, tokens spaced by their kinds") {
  CheckFormat(
      "@schedule( cron = \"0 3 * * *\" )\n"
      "@kubernetes(namespace=\"ml\",image=\"python:3.12-slim\")   flow   nightly{param epochs:int=3\n"
      "param shards : list=[\"a\",\"b\",\"c\",]  param m: str = \"x\" param r\n"
      "step start{run \"python prep.py\"   next train,evaluate}\n"
      "@environment(vars={\"A\":\"1\",\"B\" : \"2\"}) @retry step train { run [\"torchrun\",\"train.py\"] "
      "next end }\n"
      "step evaluate{run \"x\" next score foreach shards}\n"
      "@retry( ) @timeout(hours=1e1, minutes=-0.50) step end{run \"echo done\"}}",
      "@schedule(cron=\"0 3 * * *\")\n"
      "@kubernetes(namespace=\"ml\", image=\"python:3.12-slim\")\n"
      "flow nightly {\n"
      "  param epochs: int = 3\n"
      "  param shards: list = [\"a\", \"b\", \"c\"]\n"
      "  param m: str = \"x\"\n"
      "  param r\n"
      "  step start {\n"
      "    run \"python prep.py\"\n"
      "    next train, evaluate\n"
      "  }\n"
      "  @environment(vars={\"A\": \"1\", \"B\": \"2\"})\n"
      "  @retry\n"
      "  step train {\n"
      "    run [\"torchrun\", \"train.py\"]\n"
      "    next end\n"
      "  }\n"
      "  step evaluate {\n"
      "    run \"x\"\n"
      "    next score foreach shards\n"
      "  }\n"
      "  @retry()\n"
      "  @timeout(hours=1e1, minutes=-0.50)\n"
      "  step end {\n"
      "    run \"echo done\"\n"
      "  }\n"
      "}\n");
}

TEST_CASE("format: blank lines between items kept, at most one, none at a block's ends") {
  CheckFormat(
      "\n\nflow f {\n\n\n  param a: int = 1\n\n\n\n  param b: int = 2\n  @retry\n\n  step start {\n\n"
      "    run \"x\"\n\n    next end\n\n  }\n\n}\n\n\n",
      "flow f {\n  param a: int = 1\n\n  param b: int = 2\n  @retry\n\n  step start {\n"
      "    run \"x\"\n\n    next end\n  }\n}\n");
}

TEST_CASE("format: a group fits in 100 columns or breaks one element a line") {
  std::string fits(78, 'x'), over(79, 'x');
  // "  param p: list = [" is 19 columns, the quotes and the bracket 3 more.
  std::string at100 = "flow f {\n  param p: list = [\"" + fits + "\"]\n}\n";
  CHECK(at100.find('\n', 9) - 9 == 100);
  CheckFormat("flow f {\n  param p: list = [\"" + fits + "\",]\n}\n", at100);
  CheckFormat("flow f {\n  param p: list = [\"" + over + "\"]\n}\n",
              "flow f {\n  param p: list = [\n    \"" + over + "\",\n  ]\n}\n");
  // Outermost first: the decorator breaks, an argument that fits on its line stays whole, and
  // one that does not breaks in turn; a trailing comma after every element of a broken group.
  CheckFormat(
      "flow f {\n  @kubernetes(cpu=96, memory=480000, node_selector={\"a\": \"b\"}, "
      "tolerations=[{\"key\": \"nvidia.com/gpu\", \"operator\": \"Equal\", \"value\": \"present\", "
      "\"effect\": \"NoSchedule\"}, {\"key\": \"node.kubernetes.io/unreachable\", \"operator\": "
      "\"Exists\", \"effect\": \"NoExecute\", \"tolerationSeconds\": 600}])\n  step start {\n  }\n}\n",
      "flow f {\n"
      "  @kubernetes(\n"
      "    cpu=96,\n"
      "    memory=480000,\n"
      "    node_selector={\"a\": \"b\"},\n"
      "    tolerations=[\n"
      "      {\"key\": \"nvidia.com/gpu\", \"operator\": \"Equal\", \"value\": \"present\", \"effect\": "
      "\"NoSchedule\"},\n"
      "      {\n"
      "        \"key\": \"node.kubernetes.io/unreachable\",\n"
      "        \"operator\": \"Exists\",\n"
      "        \"effect\": \"NoExecute\",\n"
      "        \"tolerationSeconds\": 600,\n"
      "      },\n"
      "    ],\n"
      "  )\n"
      "  step start {}\n"
      "}\n");
  // A string is never split: a group with a long or a multi-line string breaks around it.
  CheckFormat(InStart("    run [\"\"\"a\n  b\"\"\", \"c\"]\n"),
              InStart("    run [\n      \"\"\"a\n  b\"\"\",\n      \"c\",\n    ]\n"));
  CheckFormat(InStart("    run \"" + std::string(120, 'y') + "\"\n"),
              InStart("    run \"" + std::string(120, 'y') + "\"\n"));
}

TEST_CASE("format: every comment kept where it was") {
  CheckFormat(
      "# header   \n\n\n# before a decorator\n@retry(times=1)#trailing a decorator\n"
      "flow f { # trailing the brace\n\n# before a step\n  step start {\n"
      "    run \"a # not a comment\"     # trailing a run\t\n    next end\n  }\n"
      "  step end {\n    run \"\"\"raw # not a comment\n# still the string\"\"\"\n  }\n"
      "  step empty {\n\n        # inside an empty step\n\n  }\n\n  # closing the flow\n\n}  # after\n"
      "# end of file",
      "# header\n\n# before a decorator\n@retry(times=1)  #trailing a decorator\n"
      "flow f {  # trailing the brace\n  # before a step\n  step start {\n"
      "    run \"a # not a comment\"  # trailing a run\n    next end\n  }\n"
      "  step end {\n    run \"\"\"raw # not a comment\n# still the string\"\"\"\n  }\n"
      "  step empty {\n    # inside an empty step\n  }\n\n  # closing the flow\n}  # after\n"
      "# end of file\n");
}

TEST_CASE("format: a comment inside a group breaks it; one inside an item breaks the line") {
  CheckFormat("flow f {\n  param xs: list = [\"a\", # first\n\n  \"b\"]\n}\n",
              "flow f {\n  param xs: list = [\n    \"a\",  # first\n    \"b\",\n  ]\n}\n");
  CheckFormat("flow f {\n  param xs: list = [\"a\"\n  # last\n  ]\n}\n",
              "flow f {\n  param xs: list = [\n    \"a\",\n    # last\n  ]\n}\n");
  // Before a comma: the comma stays with its element.
  CheckFormat("flow f {\n  param xs: list = [\"a\" # c\n, \"b\"]\n}\n",
              "flow f {\n  param xs: list = [\n    \"a\",  # c\n    \"b\",\n  ]\n}\n");
  CheckFormat("flow f {\n  @retry( # why\n  )\n  step s {\n  }\n}\n",
              "flow f {\n  @retry(  # why\n  )\n  step s {}\n}\n");
  CheckFormat(InStart("    next a, # why a\n b\n"),
              InStart("    next a,  # why a\n        b\n"));
  CheckFormat(InStart("    next a,\n  # why b\n b\n"),
              InStart("    next a,\n        # why b\n        b\n"));
  CheckFormat("flow f {\n  param # p\n  x: int = 1\n}\n",
              "flow f {\n  param  # p\n      x: int = 1\n}\n");
}

TEST_CASE("format: a byte order mark is dropped; CRLF becomes LF outside strings") {
  CHECK(Format("\xEF\xBB\xBF" "flow f {\r\n  step start { run \"\"\"x\r\ny\"\"\" # c\r\n"
               " next end }\r\n}\r\n") ==
        "flow f {\n  step start {\n    run \"\"\"x\r\ny\"\"\"  # c\n    next end\n  }\n}\n");
}

TEST_CASE("format: a file with syntax errors gets the parse's diagnostics and no text") {
  std::string text = "flow f {\n  step {\n  run 'x'\n}\n";
  diag::SourceFile file("t.flow", text);
  diag::Diagnostics formatted, parsed;
  CHECK_FALSE(format::Format(file, formatted));
  CHECK_FALSE(parse::Parse(file, parsed));
  CHECK(formatted.HasErrors());
  CHECK(diag::RenderText(formatted.all()) == diag::RenderText(parsed.all()));
  // Semantic errors do not stop it: formatting is about layout.
  CHECK(Format("flow f {step start{run \"{{nope}}\" next missing}}") ==
        "flow f {\n  step start {\n    run \"{{nope}}\"\n    next missing\n  }\n}\n");
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every flow of the repository that parses: the samples, the test flows, the golden cases, the
// error cases.
std::vector<std::filesystem::path> FlowsThatParse() {
  const std::filesystem::path root(FLOWC_SOURCE_DIR);
  std::vector<std::filesystem::path> flows;
  for (const char* dir : {"samples", "tests"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / dir)) {
      if (entry.path().extension() != ".flow") continue;
      diag::SourceFile file(entry.path().string(), ReadFile(entry.path()));
      diag::Diagnostics diagnostics;
      if (parse::Parse(file, diagnostics)) flows.push_back(entry.path());
    }
  }
  std::sort(flows.begin(), flows.end());
  return flows;
}

TEST_CASE("format: every flow that parses formats idempotently, its IR unchanged but lines") {
  std::vector<std::filesystem::path> flows = FlowsThatParse();
  CHECK(flows.size() > 100);
  for (const std::filesystem::path& path : flows) {
    CAPTURE(path);
    std::string text = ReadFile(path);
    std::string formatted = Format(text);
    CHECK(Format(formatted) == formatted);
    CHECK(testing::MeaningOf(path.string(), formatted) == testing::MeaningOf(path.string(), text));
  }
}

TEST_CASE("format: the committed samples and test flows are formatted") {
  const std::filesystem::path root(FLOWC_SOURCE_DIR);
  for (const char* dir : {"samples", "tests/flows"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / dir)) {
      if (entry.path().extension() != ".flow") continue;
      CAPTURE(entry.path());
      std::string text = ReadFile(entry.path());
      CHECK(Format(text) == text);
    }
  }
}

// `text` with the whitespace between its tokens changed at random: spaces and tabs anywhere,
// newlines added or removed where they decide nothing. What stays: a newline after a comment
// and none before a comment that trails a token (so every comment stays where it is), and
// whether two tokens are a blank line apart.
std::string Perturb(const std::string& text, std::mt19937& random) {
  diag::SourceFile file("t.flow", text);
  std::vector<parse::Token> tokens = parse::Lex(file);
  auto pick = [&random](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
  auto blanks = [&](int n) {
    std::string s;
    for (int i = pick(n); i > 0; --i) s += pick(2) ? ' ' : '\t';
    return s;
  };
  std::string out;
  using Kind = parse::Token::Kind;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const parse::Token& t = tokens[i];
    std::string_view piece(text.data() + t.range.offset, t.range.length);
    bool after_comment = i > 0 && tokens[i - 1].kind == Kind::kComment;
    bool gap = t.kind == Kind::kWhitespace || (i > 0 && !tokens[i - 1].is_trivia());
    if (!gap || i == 0) {
      out += piece;
      continue;
    }
    size_t newlines = t.kind == Kind::kWhitespace ? std::count(piece.begin(), piece.end(), '\n') : 0;
    const parse::Token* next = t.kind == Kind::kWhitespace
                                   ? (i + 1 < tokens.size() ? &tokens[i + 1] : nullptr)
                                   : &t;
    bool before_comment = next != nullptr && next->kind == Kind::kComment;
    size_t lines;
    if (newlines >= 2) {
      lines = 2 + pick(2);
    } else if (after_comment || (before_comment && newlines == 1)) {
      lines = 1;
    } else if (before_comment) {
      lines = 0;
    } else {
      lines = pick(2);
    }
    std::string gap_text = blanks(3);
    for (size_t n = 0; n < lines; ++n) gap_text += "\n" + blanks(4);
    if (gap_text.empty()) gap_text = " ";
    out += gap_text;
    if (t.kind != Kind::kWhitespace) out += piece;
  }
  return out;
}

TEST_CASE("format: the layout depends on the tokens, comments and blank lines only") {
  std::mt19937 random(20261127);
  std::vector<std::string> texts;
  for (const std::filesystem::path& path : FlowsThatParse()) texts.push_back(ReadFile(path));
  texts.push_back(InStart("    # c1\n    run [\"a\", # c2\n  \"b\"]  # c3\n    next end\n"));
  size_t rounds = 0, changed = 0;
  for (const std::string& text : texts) {
    std::string expected = Format(text);
    for (int round = 0; round < 5; ++round, ++rounds) {
      std::string perturbed = Perturb(text, random);
      changed += perturbed != text && perturbed != expected;
      CAPTURE(perturbed);
      CHECK(Format(perturbed) == expected);
    }
  }
  CHECK(changed == rounds);  // each round really moved something
}

}  // namespace
}  // namespace flowc
