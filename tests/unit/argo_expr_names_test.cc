// Unit tests of backends/argo/expr_names.h: the task names Argo's `depends`
// expression (expr-lang) misreads, and which steps the Argo target rejects
// for them.
#include <optional>
#include <string>

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include "backends/argo/expr_names.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/driver/driver.h"

namespace flowc::backends::argo {
namespace {

struct Result {
  std::optional<std::string> yaml;
  std::string errors;
};

Result CompileArgo(const std::string& source) {
  diag::SourceFile file("t.flow", source);
  diag::Diagnostics diagnostics;
  std::optional<std::string> yaml = driver::Compile(file, "argo", diagnostics);
  return {yaml, diag::RenderText(diagnostics.all())};
}

// The `depends` of task `name` in the DAG template `dag`, or "" without one.
std::string DependsOf(const std::string& yaml, const std::string& dag, const std::string& name) {
  for (const YAML::Node& t : YAML::Load(yaml)["spec"]["templates"]) {
    if (t["name"].as<std::string>() != dag) continue;
    for (const YAML::Node& task : t["dag"]["tasks"]) {
      if (task["name"].as<std::string>() == name) {
        return task["depends"] ? task["depends"].as<std::string>() : "";
      }
    }
  }
  FAIL("no task " << name << " in " << dag);
  return "";
}

TEST_CASE("expr-lang misreads its operator words, its constants and a leading digit") {
  CHECK(ExprMisreading("not") == "the operator 'not'");
  for (const char* word : {"in", "or", "and", "matches", "contains", "startsWith", "endsWith",
                           "let", "if", "else"}) {
    CAPTURE(word);
    CHECK(ExprMisreading(word) == std::string("the operator '") + word + "'");
  }
  CHECK(ExprMisreading("true") == "the constant 'true'");
  CHECK(ExprMisreading("false") == "the constant 'false'");
  CHECK(ExprMisreading("nil") == "the constant 'nil'");
  CHECK(ExprMisreading("7up") == "a number");
  // Argo reads '-' as '_', which makes one identifier of the whole name.
  CHECK(ExprMisreading("in-x") == "");
  CHECK(ExprMisreading("not-") == "");
  // Words are case-sensitive: flowc's names are lowercase.
  CHECK(ExprMisreading("startswith") == "");
  CHECK(ExprMisreading("len") == "");  // a built-in only when called
  CHECK(ExprMisreading("train") == "");
}

TEST_CASE("argo: a step a `depends` names must not be a word expr-lang reserves") {
  Result r = CompileArgo(R"(flow f {
  step start { run "s" next If }
  step If { run "i" next end }
  step end { run "e" }
}
)");
  CHECK(!r.yaml);
  CHECK(r.errors ==
        "t.flow:3:8: error: step 'If' is the Argo task 'if', and Argo's expression language "
        "would read that name in a `depends` as the operator 'if' [E050]\n"
        "  step If { run \"i\" next end }\n"
        "       ^~\n"
        "note: Argo evaluates `depends` as an expr-lang expression in which each task name "
        "('-' read as '_') is a variable; a word expr-lang reserves cannot be one\n"
        "help: rename step 'If'\n");
}

TEST_CASE("argo: a reserved word no `depends` names compiles") {
  // 'In' is the whole foreach body: the join depends on the body's task.
  Result r = CompileArgo(R"(flow f {
  param xs: list = ["a"]
  step start { run "s" next In foreach xs }
  step In { run "i {{item}}" next and_more }
  step and_more { run "j" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(r.yaml, r.errors);
  CHECK(DependsOf(*r.yaml, "main", "and-more") == "in-foreach");
  CHECK(DependsOf(*r.yaml, "main", "end") == "and-more");
  CHECK(DependsOf(*r.yaml, "in-foreach", "in") == "");
}

}  // namespace
}  // namespace flowc::backends::argo
