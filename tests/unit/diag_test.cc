#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "compiler/diag/diagnostics.h"
#include "compiler/diag/suggest.h"
#include "compiler/driver/files.h"
#include "compiler/driver/spool.h"

namespace flowc {
namespace {

TEST_CASE("diag: clang-style rendering with caret, notes and help") {
  diag::SourceFile file("x.flow", "flow f {\n\tstep a { next trian }\n}\n");
  diag::Diagnostics d;
  d.Report(diag::Code::kUnknownStep, &file, file.RangeAt(24, 5), "'next' names unknown step 'trian'")
      .AddNote(file.RangeAt(10, 4), "in this step")
      .SetHelp("did you mean 'train'?");
  CHECK(diag::RenderText(d.all()) ==
        "x.flow:2:16: error: 'next' names unknown step 'trian' [E014]\n"
        "\tstep a { next trian }\n"
        "\t              ^~~~~\n"
        "x.flow:2:2: note: in this step\n"
        "\tstep a { next trian }\n"
        "\t^~~~\n"
        "help: did you mean 'train'?\n");
}

TEST_CASE("diag: JSON and SARIF carry code, severity and location") {
  diag::SourceFile file("x.flow", "flow f {}\n");
  diag::Diagnostics d;
  d.Report(diag::Code::kMissingStart, &file, file.RangeAt(5, 1), "no start").SetHelp("add it");
  auto json = diag::RenderJson(d.all());
  CHECK(json[0]["code"] == "E012");
  CHECK(json[0]["line"] == 1);
  CHECK(json[0]["column"] == 6);
  CHECK(json[0]["help"] == "add it");
  auto sarif = diag::RenderSarif(d.all(), "1.0");
  CHECK(sarif["version"] == "2.1.0");
  CHECK(sarif["runs"][0]["results"][0]["ruleId"] == "E012");
  // The rule links to the code's section of docs/diagnostics.md, as the language server does.
  CHECK(sarif["runs"][0]["tool"]["driver"]["rules"] ==
        nlohmann::json::parse(R"([{"id": "E012", "shortDescription": {"text": "no step 'start'"},
          "helpUri": "https://github.com/flowc/flowc/blob/main/docs/diagnostics.md#e012"}])"));
  CHECK(sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 1);
}

TEST_CASE("diag: warnings become errors under --werror") {
  diag::Diagnostics d;
  d.Report(diag::Code::kUnusedParam, nullptr, {}, "unused");
  CHECK_FALSE(d.HasErrors());
  d.PromoteWarnings();
  CHECK(d.HasErrors());
}

TEST_CASE("diag: did you mean") {
  CHECK(diag::ClosestMatch("trian", {"train", "evaluate", "start"}) == "train");
  CHECK(diag::ClosestMatch("zzzzzz", {"train", "evaluate"}).empty());
  CHECK(diag::DidYouMean("kubernets", {"kubernetes", "resources"}) == "did you mean 'kubernetes'?");
}

TEST_CASE("driver: unified diff of two texts") {
  CHECK(driver::UnifiedDiff("a\nb\n", "a\nb\n", "x", "y").empty());
  CHECK(driver::UnifiedDiff("a\nb\nc\n", "a\nB\nc\n", "old", "new") ==
        "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
}

TEST_CASE("driver: atomic writes replace the file whole") {
  std::string path = "/tmp/flowc_unit_atomic.txt";
  std::string error;
  auto write = [&](const std::string& to, std::string_view text) {
    driver::Spool spool(to);
    spool.Write(text);
    return spool.Commit(&error);
  };
  REQUIRE(write(path, "one\n"));
  REQUIRE(write(path, "two\n"));
  CHECK(*driver::ReadInput(path, &error) == "two\n");
  CHECK_FALSE(write("/nonexistent-dir/x", "z"));
  CHECK(error.find("cannot write '/nonexistent-dir/x'") == 0);
}

}  // namespace
}  // namespace flowc
