// compiler/explain: every code's example reports exactly its code at its marked line, every
// decorator's example checks cleanly, and `flowc explain` answers as documented.
#include "compiler/explain/explain.h"

#include <doctest/doctest.h>

#include <regex>
#include <sstream>

#include "compiler/diag/diagnostics.h"
#include "compiler/driver/driver.h"
#include "compiler/driver/validate_command.h"
#include "compiler/explain/example_run.h"
#include "compiler/graph/decorator_table.h"

namespace flowc {
namespace {

void RunStages(const diag::SourceFile& file, const explain::Invocation& how, diag::Diagnostics& d) {
  if (how.validate) {
    driver::ValidateWithDefaults(file, d);
  } else if (how.target.empty()) {
    driver::Analyze(file, d);
  } else {
    driver::Compile(file, how.target, d);
  }
}

// The 1-based line of `example` that carries `marker`, or 0.
size_t LineOf(std::string_view example, const std::string& marker) {
  size_t at = example.find(marker);
  if (at == std::string_view::npos) return 0;
  return static_cast<size_t>(std::count(example.begin(), example.begin() + at, '\n')) + 1;
}

TEST_CASE("explain: each example reports exactly its code, once, at its marked line") {
  const std::regex headline(
      R"(^example\.(?:flow|yaml):(\d+):\d+: (error|warning): .* \[([EW]\d{3})\]$)");
  size_t examples = 0;
  for (diag::Code code : diag::AllCodes()) {
    std::string name(diag::CodeString(code));
    std::string_view example = diag::Text(code).example;
    CAPTURE(name);
    CHECK(!diag::Text(code).title.empty());
    CHECK(!diag::Text(code).meaning.empty());
    CHECK(!diag::Text(code).fix.empty());
    if (example.empty()) {
      // I/O errors: no input reports them on every machine; E076 is about a --schemas file.
      CHECK((name == "E065" || name == "E076" || name == "E077"));
      continue;
    }
    ++examples;
    std::string severity =
        diag::DefaultSeverity(code) == diag::Severity::kError ? "error" : "warning";
    size_t marked = LineOf(example, "# " + severity + ": " + name);
    CHECK(marked > 0);
    explain::ExampleRun run = explain::RunExample(example, RunStages);
    // `flowc validate`'s codes (E070 to E077) are shown by YAML, the others by a flow.
    CHECK(run.validate == ((name >= "E070" && name <= "E077") ||
                                 (name >= "W070" && name <= "W074")));
    std::istringstream lines(run.reported);
    std::vector<std::string> heads;
    for (std::string line; std::getline(lines, line);) {
      std::smatch m;
      if (std::regex_match(line, m, headline)) heads.push_back(line);
    }
    REQUIRE_MESSAGE(heads.size() == 1, run.reported);
    std::smatch m;
    REQUIRE(std::regex_match(heads[0], m, headline));
    CHECK(m[3].str() == name);
    CHECK(m[2].str() == severity);
    CHECK(std::stoul(m[1].str()) == marked);
  }
  CHECK(examples == diag::AllCodes().size() - 3);
}

TEST_CASE("explain: each decorator's example checks without a diagnostic") {
  for (const graph::decorator_table::DecoratorSpec& spec : graph::decorator_table::Table()) {
    CAPTURE(spec.name);
    REQUIRE(!spec.example.empty());
    CHECK(spec.example.find("@" + std::string(spec.name)) != std::string_view::npos);
    CHECK(!spec.targets.empty());
    explain::ExampleRun run = explain::RunExample(spec.example, RunStages);
    CHECK(run.whole_flow);
    CHECK(run.reported == "");
    for (const graph::decorator_table::ArgSpec& arg : spec.args) {
      CAPTURE(arg.name);
      CHECK(!arg.doc.empty());
      CHECK(!arg.becomes.empty());
    }
  }
}

TEST_CASE("explain: a code in either case, and an unknown one with a did-you-mean") {
  std::ostringstream out, err, lower;
  CHECK(explain::RunExplain("E014", RunStages, out, err) == 0);
  CHECK(err.str() == "");
  CHECK(out.str().rfind("## E014\n\n**Unknown step.** ", 0) == 0);
  CHECK(explain::RunExplain("e014", RunStages, lower, err) == 0);
  CHECK(lower.str() == out.str());

  std::ostringstream none, message;
  CHECK(explain::RunExplain("E0144", RunStages, none, message) == 2);
  CHECK(none.str() == "");
  CHECK(message.str() ==
        "flowc: error: no diagnostic has the code 'E0144'\n"
        "help: did you mean 'E014'?\n"
        "help: the codes are E001 to E077 and W001 to W071; docs/diagnostics.md lists them\n");
  std::ostringstream far;
  CHECK(explain::RunExplain("hello", RunStages, none, far) == 2);
  CHECK(far.str() ==
        "flowc: error: no diagnostic has the code 'hello'\n"
        "help: the codes are E001 to E077 and W001 to W071; docs/diagnostics.md lists them\n");
}

TEST_CASE("explain: codes are found in either case, and link to their section") {
  CHECK(diag::FindCode("W003") == diag::Code::kGuaranteedWithoutLimits);
  CHECK(diag::FindCode("w003") == diag::Code::kGuaranteedWithoutLimits);
  CHECK(!diag::FindCode("E038").has_value());
  CHECK(!diag::FindCode("").has_value());
  CHECK(diag::HelpUri(diag::Code::kUnknownStep) ==
        "https://github.com/flowc/flowc/blob/main/docs/diagnostics.md#e014");
}

}  // namespace
}  // namespace flowc
