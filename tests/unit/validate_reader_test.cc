// flowc validate's reader: YAML 1.1 scalars as sigs.k8s.io/yaml reads them, Finding paths and
// their text form, and the positions a path maps back to.
#include <doctest/doctest.h>

#include "compiler/validate/path.h"
#include "compiler/validate/yaml_reader.h"
#include "compiler/validate/yaml_scalar.h"

namespace flowc::validate {
namespace {

TEST_CASE("plain scalars read as kubectl reads them") {
  using nlohmann::json;
  CHECK(ResolvePlainScalar("yes") == json(true));
  CHECK(ResolvePlainScalar("On") == json(true));
  CHECK(ResolvePlainScalar("n") == json(false));
  CHECK(ResolvePlainScalar("OFF") == json(false));
  CHECK(ResolvePlainScalar("~").is_null());
  CHECK(ResolvePlainScalar("").is_null());
  CHECK(ResolvePlainScalar("0x1F") == json(31));
  CHECK(ResolvePlainScalar("0755") == json(493));
  CHECK(ResolvePlainScalar("0b101") == json(5));
  CHECK(ResolvePlainScalar("1_000") == json(1000));
  CHECK(ResolvePlainScalar("-12") == json(-12));
  CHECK(ResolvePlainScalar("1.5") == json(1.5));
  CHECK(ResolvePlainScalar("1.0").is_number_integer());
  CHECK(ResolvePlainScalar("1e3") == json(1000));
  CHECK(ResolvePlainScalar(".5") == json(0.5));
  CHECK(ResolvePlainScalar("08") == json(8));  // not octal: Go falls back to a float
  CHECK(ResolvePlainScalar("2026-01-02") == json("2026-01-02"));
  CHECK(ResolvePlainScalar("500m") == json("500m"));
  CHECK(ResolvePlainScalar("18446744073709551615").is_number_unsigned());
  CHECK(ResolvePlainScalar("-") == json("-"));
  CHECK(ResolvePlainScalar(".inf") == json(".inf"));
}

TEST_CASE("paths round-trip through their text form") {
  Path path = {Key("metadata"), Key("labels"), Key("app.kubernetes.io/name")};
  CHECK(FormatPath(path) == "metadata.labels[\"app.kubernetes.io/name\"]");
  Path list = {Key("spec"), Key("templates"), Index(2), Key("container"), Key("resource")};
  CHECK(FormatPath(list) == "spec.templates[2].container.resource");
  for (const char* text : {"spec.templates[2].container.resource", "a[\"x.y\"][0][1].b",
                           "[\"\\\"quoted\\\"\"]", "a.b"}) {
    std::optional<Path> parsed = ParsePath(text);
    REQUIRE(parsed);
    CHECK(FormatPath(*parsed) == text);
  }
  CHECK(ParsePath("")->empty());
  CHECK_FALSE(ParsePath("a..b"));
  CHECK_FALSE(ParsePath("a[x]"));
  CHECK_FALSE(ParsePath("a[\"x\""));
}

TEST_CASE("a path maps to its node's line and column") {
  diag::SourceFile file("t.yaml",
                        "a: 1\n---\nkind: X\nspec:\n  list:\n    - name: one\n    - {name: two}\n");
  YamlStream stream = ReadYamlStream(file);
  REQUIRE_FALSE(stream.error);
  REQUIRE(stream.documents.size() == 2);
  const YamlDocument& doc = stream.documents[1];
  CHECK(doc.number == 2);
  diag::SourceRange r = doc.Locate(*ParsePath("spec.list[1].name"));
  CHECK(r.line == 7);
  CHECK(r.column == 8);
  r = doc.Locate(*ParsePath("spec.list[0]"));
  CHECK(r.line == 6);
  CHECK(r.column == 7);
  // A missing field points at the deepest node the path reaches: its parent's key.
  r = doc.Locate(*ParsePath("spec.missing"));
  CHECK(r.line == 4);
  CHECK(r.column == 1);
}

TEST_CASE("duplicate keys, merge keys and aliases") {
  diag::SourceFile file("t.yaml", "base: &b {a: 1, b: 2}\nm:\n  <<: *b\n  b: 3\nd: 1\nd: 2\ny: 4\n");
  YamlStream stream = ReadYamlStream(file);
  REQUIRE(stream.documents.size() == 1);
  const YamlDocument& doc = stream.documents[0];
  CHECK(doc.value["m"] == nlohmann::json({{"a", 1}, {"b", 3}}));
  CHECK(doc.value["d"] == 2);
  // A key is resolved as a value is: `y` is YAML 1.1's true, and JSON's key "true".
  CHECK(doc.value["true"] == 4);
  REQUIRE(doc.problems.size() == 1);
  CHECK(doc.problems[0].message == "duplicate field \"d\"");
  CHECK(doc.problems[0].range.line == 6);
}

TEST_CASE("bad input is an error, never a crash") {
  diag::SourceFile bad("t.yaml", "a: [1, 2\n");
  YamlStream stream = ReadYamlStream(bad);
  REQUIRE(stream.error);
  CHECK(stream.error->second.rfind("YAML syntax error", 0) == 0);
  diag::SourceFile latin1("t.yaml", "a: caf\xe9\n");
  stream = ReadYamlStream(latin1);
  REQUIRE(stream.error);
  CHECK(stream.error->first.line == 1);
  CHECK(stream.error->first.column == 7);
  diag::SourceFile bomb("t.yaml",
                        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                        "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
                        "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                        "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n");
  stream = ReadYamlStream(bomb);
  REQUIRE(stream.error);
  CHECK(stream.error->second.find("aliases expand") != std::string::npos);
}

}  // namespace
}  // namespace flowc::validate
