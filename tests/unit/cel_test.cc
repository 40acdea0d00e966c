// Unit tests of the CEL evaluator (compiler/cel): the CEL spec's semantics on small
// expressions (cel-spec doc/langdef.md), the Kubernetes library functions, compile errors,
// and every x-kubernetes-validations rule of the bundled CRDs on a `self` that passes it and
// one that breaks it (tests/cel/rules.json).
#include "compiler/cel/cel.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace flowc::cel {
namespace {

using nlohmann::json;

// The outcome of one rule as text, so that a test states the whole of it: "true", "false",
// "error: <message>", or "compile error: <message>".
std::string Run(std::string_view rule, const json& self = json::object(),
                const json* old_self = nullptr) {
  Compiled compiled = Compile(rule);
  if (!compiled.program) return "compile error: " + compiled.error;
  Result r = Evaluate(*compiled.program, self, old_self);
  switch (r.kind) {
    case Result::kTrue:
      return "true";
    case Result::kFalse:
      return "false";
    default:
      return "error: " + r.error;
  }
}

std::string RunJson(std::string_view rule, const char* self) {
  return Run(rule, json::parse(self));
}

TEST_CASE("cel: literals and arithmetic on int, uint and double") {
  CHECK(Run("1 + 2 == 3") == "true");
  CHECK(Run("7 / 2 == 3 && 7 % 2 == 1 && -7 / 2 == -3 && -7 % 2 == -1") == "true");
  CHECK(Run("0x10 == 16 && 3u + 4u == 7u && 1.5 * 2.0 == 3.0") == "true");
  CHECK(Run("-9223372036854775808 < 0") == "true");
  CHECK(Run("1.0 / 0.0 > 1e308") == "true");  // doubles follow IEEE 754, no error
  CHECK(Run("'a' + 'b' == 'ab' && [1] + [2] == [1, 2]") == "true");
}

TEST_CASE("cel: integer overflow, division by zero and mixed types are errors") {
  CHECK(Run("9223372036854775807 + 1 > 0") == "error: integer overflow");
  CHECK(Run("-9223372036854775808 - 1 < 0") == "error: integer overflow");
  CHECK(Run("-9223372036854775808 / -1 < 0") == "error: integer overflow");
  CHECK(Run("4611686018427387904 * 2 > 0") == "error: integer overflow");
  CHECK(Run("0u - 1u > 0u") == "error: integer overflow");
  CHECK(Run("1 / 0 == 0") == "error: division by zero");
  CHECK(Run("1 % 0 == 0") == "error: modulus by zero");
  CHECK(Run("1 + 1.0 == 2.0") == "error: no such overload: _+_(int, double)");
  CHECK(Run("1 + 1u == 2u") == "error: no such overload: _+_(int, uint)");
  CHECK(Run("9223372036854775808 > 0") ==
        "compile error: integer literal 9223372036854775808 is out of range at 1:1");
}

TEST_CASE("cel: numbers compare across types; other types are unequal, not errors") {
  CHECK(Run("1 == 1.0 && 1u == 1 && 2 > 1.5 && 1u < 2") == "true");
  CHECK(Run("-1 < 0u") == "true");
  CHECK(Run("1 == '1'") == "false");
  CHECK(Run("[1, 'a'] == [1, 'a'] && {'a': 1} == {'a': 1.0}") == "true");
  CHECK(Run("null == null && self.x == null", json::parse(R"({"x": null})")) == "true");
  CHECK(Run("1 < 'a'") == "error: no such overload: _<_(int, string)");
  CHECK(Run("'abc' < 'abd' && 'b' > 'a'") == "true");
}

TEST_CASE("cel: && and || absorb errors from either side, commutatively") {
  const char* self = R"({"a": 1})";
  CHECK(RunJson("false && self.missing == 1", self) == "false");
  CHECK(RunJson("self.missing == 1 && false", self) == "false");
  CHECK(RunJson("true || self.missing == 1", self) == "true");
  CHECK(RunJson("self.missing == 1 || true", self) == "true");
  CHECK(RunJson("self.missing == 1 || false", self) == "error: no such key: 'missing'");
  CHECK(RunJson("true && self.missing == 1", self) == "error: no such key: 'missing'");
  CHECK(RunJson("1/0 == 1 && self.missing == 1 && false", self) == "false");
  CHECK(Run("true && 1") == "error: no such overload: _&&_(int)");
  // Other functions are strict: an error in any argument is the result.
  CHECK(RunJson("[false, self.missing == 1][0]", self) == "error: no such key: 'missing'");
  CHECK(RunJson("self.missing == 1 ? true : true", self) == "error: no such key: 'missing'");
  CHECK(Run("!1") == "error: no such overload: !_(int)");
  CHECK(Run("!!true && !false") == "true");
}

TEST_CASE("cel: has() on maps tests presence; selection of a missing key is an error") {
  const char* self = R"({"spec": {"a": 0, "n": null}, "list": [1]})";
  CHECK(RunJson("has(self.spec.a) && !has(self.spec.b) && has(self.spec.n)", self) == "true");
  CHECK(RunJson("has(self.nope.a)", self) == "error: no such key: 'nope'");
  CHECK(RunJson("has(self.list.a)", self) == "error: has() on a list, which has no fields");
  CHECK(RunJson("self.spec['a'] == 0 && 'a' in self.spec && !('b' in self.spec)", self) == "true");
  CHECK(RunJson("self.spec['b'] == 0", self) == "error: no such key: 'b'");
  CHECK(RunJson("self.list[1] == 0", self) == "error: index out of range: 1");
  CHECK(Run("has(self)") ==
        "compile error: invalid argument to has() macro: it takes a field selection, such as "
        "has(self.field) at 1:1");
}

TEST_CASE("cel: property names escaped as Kubernetes escapes them") {
  const char* self = R"({"foo-bar": 1, "namespace": "ns", "a.b/c": 2, "x__y": 3, "p__dash__q": 4})";
  CHECK(RunJson("self.foo__dash__bar == 1 && self.__namespace__ == 'ns'", self) == "true");
  CHECK(RunJson("self.a__dot__b__slash__c == 2 && self.x__underscores__y == 3", self) == "true");
  CHECK(RunJson("has(self.foo__dash__bar) && !has(self.foo__dash__baz)", self) == "true");
  CHECK(RunJson("self.p__dash__q == 4", self) == "true");  // a key spelled so is itself
}

TEST_CASE("cel: the macros, and how all and exists absorb errors") {
  CHECK(Run("[1, 2, 3].all(x, x > 0) && [1, 2, 3].exists(x, x == 2)") == "true");
  CHECK(Run("[1, 2, 3].exists_one(x, x > 2) && ![1, 2, 3].exists_one(x, x > 1)") == "true");
  CHECK(Run("[1, 2, 3].map(x, x * 2) == [2, 4, 6]") == "true");
  CHECK(Run("[1, 2, 3].map(x, x > 1, x * 10) == [20, 30]") == "true");
  CHECK(Run("[1, 2, 3].filter(x, x % 2 == 1) == [1, 3]") == "true");
  CHECK(Run("{'a': 1, 'b': 2}.all(k, k in ['a', 'b'])") == "true");  // keys of a map
  CHECK(Run("[].all(x, x > 0) && ![].exists(x, x > 0)") == "true");
  // An element that decides hides another element's error, wherever the two are.
  CHECK(Run("[0, 1].all(x, 1 / x > 5)") == "false");
  CHECK(Run("[1, 0].exists(x, 1 / x == 1)") == "true");
  CHECK(Run("[0, 1].all(x, 1 / x > 0)") == "error: division by zero");
  CHECK(Run("[1, 0].exists_one(x, 1 / x == 1)") == "error: division by zero");
  CHECK(Run("[1].all(x, x)") == "error: all(): the predicate is a int, not a bool");
  CHECK(Run("[[1, 2], [3]].all(x, x.all(y, y > 0))") == "true");
  CHECK(Run("[1].all(x, [2].all(x, x == 2))") == "true");  // the inner x shadows the outer
  CHECK(Run("[1].all(1, true)") == "compile error: all() takes a variable name first at 1:5");
}

TEST_CASE("cel: strings, size and matches") {
  CHECK(Run("size('héllo') == 5 && 'héllo'.size() == 5 && size(b'h\\xff') == 2") == "true");
  CHECK(Run("'abc'.startsWith('ab') && 'abc'.endsWith('bc') && 'abc'.contains('b')") == "true");
  CHECK(Run("'train-1'.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$') && !'1a'.matches('^[a-z]')") ==
        "true");
  CHECK(Run("matches('xyz', 'y')") == "true");  // a search, not a whole-string match
  // Go's regexp (RE2): its flags, '.' as one UTF-8 character, its bound on repetition counts.
  CHECK(Run("'a'.matches('(?i)A') && 'é'.matches('^.$') && 'a\\rb'.matches('a.b')") == "true");
  CHECK(Run("'a'.matches('(a')") ==
        "compile error: error parsing regexp '(a': missing ): (a at 1:5");
  CHECK(Run("'a'.matches('a{1001}')") ==
        "compile error: error parsing regexp 'a{1001}': invalid repetition size: {1001} at 1:5");
  CHECK(Run("'a'.matches('(?=a)')") ==
        "compile error: error parsing regexp '(?=a)': invalid perl operator: (?= at 1:5");
  // A pattern built at run time is checked when matches() runs.
  CHECK(Run("'a'.matches('(' + 'a')") == "error: error parsing regexp '(a': missing ): (a");
  CHECK(Run("'a\\tb' == 'a' + '\\u0009' + 'b' && r'a\\tb'.size() == 4") == "true");
  CHECK(Run("'''x\ny''' == \"x\\ny\"") == "true");
  CHECK(Run("'\\ud800' == ''") ==
        "compile error: invalid code point U+D800 in a string literal at 1:1");
}

TEST_CASE("cel: the Kubernetes strings and lists libraries") {
  CHECK(Run("'ABc'.lowerAscii() == 'abc' && 'abC'.upperAscii() == 'ABC'") == "true");
  CHECK(Run("'hello'.indexOf('l') == 2 && 'hello'.lastIndexOf('l') == 3 && 'héllo'.indexOf('l') == "
            "2") == "true");
  CHECK(Run("'hello'.indexOf('l', 3) == 3 && 'hello'.indexOf('z') == -1") == "true");
  CHECK(Run("'hello'.charAt(1) == 'e' && 'hello'.substring(1, 3) == 'el' && 'hello'.substring(3) "
            "== 'lo'") == "true");
  CHECK(Run("'hello'.substring(4, 2) == ''") == "error: invalid substring range. start: 4, end: 2");
  CHECK(Run("'a,b,c'.split(',') == ['a', 'b', 'c'] && 'a,b,c'.split(',', 2) == ['a', 'b,c']") ==
        "true");
  CHECK(Run("'aaa'.replace('a', 'b', 2) == 'bba' && '  x \\n'.trim() == 'x'") == "true");
  CHECK(Run("['a', 'b'].join('-') == 'a-b' && ['a', 'b'].join() == 'ab'") == "true");
  CHECK(Run("[1, 2, 2].isSorted() && ![2, 1].isSorted() && ['a', 'b'].isSorted()") == "true");
  CHECK(Run("[1, 2, 3].sum() == 6 && [].sum() == 0 && [1.5, 2.5].sum() == 4.0") == "true");
  CHECK(Run("[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3 && [1, 2, 3].indexOf(2) == 1") == "true");
  CHECK(Run("[].min() == 0") == "error: min called on an empty list");
}

TEST_CASE("cel: conversions and type()") {
  CHECK(Run("int('42') == 42 && uint(3) == 3u && double(1) == 1.0 && string(12) == '12'") ==
        "true");
  CHECK(Run("int(2.9) == 2 && int(-2.9) == -2 && string(1.5) == '1.5' && bool('true')") == "true");
  CHECK(Run("type(1) == int && type('a') == string && type([]) == list && type(type(1)) == type") ==
        "true");
  CHECK(Run("int('x') == 0") == "error: cannot convert 'x' to int");
  // A long value is cut in a message at a character's first byte, never inside one.
  CHECK(Run("int('" + std::string(36, 'a') + "éééé') == 0") ==
        "error: cannot convert '" + std::string(36, 'a') + "...' to int");
  CHECK(Run("int(1e19) == 0") == "error: double out of int range");
  CHECK(Run("uint(-1) == 0u") == "error: int out of uint range");
}

TEST_CASE("cel: optional values") {
  const char* self = R"({"a": {"b": 1}})";
  CHECK(RunJson("self.?a.?b.orValue(0) == 1 && self.?x.?b.orValue(0) == 0", self) == "true");
  CHECK(RunJson("self.?a.b.hasValue() && !self.?x.b.hasValue()", self) == "true");
  CHECK(RunJson("self.a[?'b'].value() == 1 && !self.a[?'z'].hasValue()", self) == "true");
  CHECK(Run("optional.of(1).value() == 1 && !optional.none().hasValue()") == "true");
  CHECK(Run("optional.none().value() == 1") == "error: optional.none() dereference");
  CHECK(Run("[1, ?optional.none(), ?optional.of(2)] == [1, 2]") == "true");
  CHECK(Run("optional.ofNonZeroValue('').orValue('d') == 'd'") == "true");
}

TEST_CASE("cel: self is typed by its JSON; oldSelf makes a transition rule") {
  CHECK(RunJson("self.n == 3 && type(self.n) == int && type(self.d) == double",
                R"({"n": 3, "d": 3.5})") == "true");
  CHECK(RunJson("self.n + 1.0 > 0.0", R"({"n": 3})") ==
        "error: no such overload: _+_(int, double)");
  Compiled rule = Compile("self == oldSelf");
  REQUIRE(rule.program);
  CHECK(UsesOldSelf(*rule.program));
  CHECK_FALSE(UsesOldSelf(*Compile("self.a == 1").program));
  json a = json::parse(R"({"x": [1, {"y": "z"}]})"), b = json::parse(R"({"x": [1, {"y": "w"}]})");
  CHECK(Evaluate(*rule.program, a, &a).kind == Result::kTrue);
  CHECK(Evaluate(*rule.program, a, &b).kind == Result::kFalse);
  // On create there is no old object: the caller skips the rule; evaluating it anyway is an
  // error, never a pass.
  Result create = Evaluate(*rule.program, a, nullptr);
  CHECK(create.kind == Result::kError);
  CHECK(create.error == "oldSelf is not available: there is no old object");
  // optionalOldSelf: true makes oldSelf an optional, none on create.
  Compiled ratchet = Compile("!oldSelf.hasValue() || self.x == oldSelf.value().x");
  REQUIRE(ratchet.program);
  CHECK(EvaluateOptionalOldSelf(*ratchet.program, a, nullptr).kind == Result::kTrue);
  CHECK(EvaluateOptionalOldSelf(*ratchet.program, a, &a).kind == Result::kTrue);
  CHECK(EvaluateOptionalOldSelf(*ratchet.program, a, &b).kind == Result::kFalse);
}

TEST_CASE("cel: a rule that is not a bool, and messageExpression strings") {
  CHECK(Run("1 + 1") == "error: the rule's value is a int, not a bool");
  Compiled message = Compile("'replicas is ' + string(self.replicas)");
  REQUIRE(message.program);
  StringResult text = EvaluateString(*message.program, json::parse(R"({"replicas": 3})"), nullptr);
  CHECK(text.ok);
  CHECK(text.value == "replicas is 3");
  StringResult bad = EvaluateString(*Compile("1").program, json::object(), nullptr);
  CHECK_FALSE(bad.ok);
  CHECK(bad.error == "the message expression's value is a int, not a string");
}

TEST_CASE("cel: what the evaluator cannot compile is an error naming it") {
  CHECK(Run("quantity('1Gi').isInteger()") ==
        "compile error: undeclared function 'quantity' (flowc's CEL evaluator does not support it) "
        "at 1:1");
  CHECK(Run("self.x.frobnicate()") ==
        "compile error: undeclared function 'frobnicate' (flowc's CEL evaluator does not support "
        "it) at 1:8");
  CHECK(Run("size(1, 2)") == "compile error: no overload of 'size' takes 2 arguments at 1:1");
  CHECK(Run("foo == 1") == "compile error: undeclared reference to 'foo' at 1:1");
  CHECK(Run("self.a ==") == "compile error: syntax error at 1:10: unexpected end of expression");
  CHECK(Run("self.a # 1") == "compile error: syntax error at 1:8: unexpected character '#'");
  CHECK(Run("Msg{a: 1}") == "compile error: syntax error at 1:4: unexpected '{'");
  CHECK(Run(std::string(200, '(') + "1" + std::string(200, ')')) ==
        "compile error: expression nests more than 100 levels deep at 1:101");
  std::string chain = "1";
  for (int i = 0; i < 1500; ++i) chain += " + 1";
  CHECK(Run(chain + " > 0") == "compile error: expression nests more than 1000 levels deep");
  CHECK(Run("'\xff' == ''") == "compile error: the expression is not valid UTF-8");
}

// --- every rule of the bundled CRDs ----------------------------------------------------------

// The rules of one CRD file: x-kubernetes-validations lists anywhere in its schemas.
void CollectRules(const json& node, std::set<std::string>* rules) {
  if (node.is_object()) {
    auto it = node.find("x-kubernetes-validations");
    if (it != node.end() && it->is_array()) {
      for (const json& v : *it) {
        if (v.contains("rule") && v["rule"].is_string())
          rules->insert(v["rule"].get<std::string>());
      }
    }
    for (const auto& item : node.items()) CollectRules(item.value(), rules);
  } else if (node.is_array()) {
    for (const json& item : node) CollectRules(item, rules);
  }
}

TEST_CASE("cel: every x-kubernetes-validations rule of the bundled CRDs, passing and broken") {
  const std::filesystem::path root(FLOWC_SOURCE_DIR);
  const std::filesystem::path schemas = root / "compiler/validate/schemas";
  REQUIRE(std::filesystem::is_directory(schemas));
  std::map<std::string, std::string> bundled;  // rule -> the first file that holds it
  size_t files = 0;
  for (const auto& dir : std::filesystem::directory_iterator(schemas)) {
    for (const auto& file : std::filesystem::directory_iterator(dir.path())) {
      if (file.path().extension() != ".json") continue;
      std::ifstream in(file.path());
      json crd = json::parse(in);
      if (!crd.is_object() || crd.value("kind", "") != "CustomResourceDefinition") continue;
      ++files;
      std::set<std::string> rules;
      CollectRules(crd, &rules);
      for (const auto& rule : rules) bundled.emplace(rule, file.path().filename().string());
    }
  }
  CHECK(files == 30);  // argo 3.7 and 4.1 (7 each), jobset 2, trainer 3, kueue 11

  std::ifstream table_file(root / "tests/cel/rules.json");
  json table = json::parse(table_file);
  std::map<std::string, const json*> cases;
  for (const json& entry : table["rules"]) cases[entry["rule"].get<std::string>()] = &entry;

  // Plain names, not a structured binding: doctest's INFO captures in a lambda, which clang 14
  // does not allow of a structured binding.
  for (const auto& bundled_rule : bundled) {
    const std::string& rule = bundled_rule.first;
    const std::string& file = bundled_rule.second;
    INFO("rule of " << file << ": " << rule);
    auto it = cases.find(rule);
    CHECK_MESSAGE(it != cases.end(), "no case in tests/cel/rules.json");
    if (it == cases.end()) continue;
    Compiled compiled = Compile(rule);
    CHECK_MESSAGE(compiled.program != nullptr, compiled.error);
    if (!compiled.program) continue;
    for (const char* which : {"pass", "fail"}) {
      const json& c = (*it->second)[which];
      const json* old_self = c.contains("oldSelf") ? &c["oldSelf"] : nullptr;
      CHECK_MESSAGE(UsesOldSelf(*compiled.program) == (old_self != nullptr),
                    "a transition rule's cases give oldSelf, and only theirs");
      Result r = Evaluate(*compiled.program, c["self"], old_self);
      INFO(which << ": " << r.error);
      CHECK(r.kind == (std::string(which) == "pass" ? Result::kTrue : Result::kFalse));
    }
  }
  // A case whose rule left the CRDs is stale.
  for (const auto& case_entry : cases) {
    const std::string& rule = case_entry.first;
    INFO(rule);
    CHECK_MESSAGE(bundled.count(rule) == 1, "tests/cel/rules.json has a rule no bundled CRD holds");
  }
  CHECK(bundled.size() == 60);
}

}  // namespace
}  // namespace flowc::cel
