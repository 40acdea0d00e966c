// Unit tests of how flowc prints floats (compiler/ir/float_text.h FloatText,
// ShortestFloats): nlohmann's layout, the fewest digits that read back.
#include <charconv>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "compiler/ir/ir_json.h"
#include "tests/unit/test_util.h"

namespace flowc::ir {
namespace {

std::string Nlohmann(double value) { return nlohmann::json(value).dump(); }

// The significant digits of a float's text, without leading zeros.
std::string Digits(const std::string& text) {
  std::string digits;
  for (char c : text.substr(0, text.find('e'))) {
    if (c >= '0' && c <= '9' && !(digits.empty() && c == '0')) digits += c;
  }
  return digits;
}

TEST_CASE("floats: the shortest digits where nlohmann's Grisu2 prints more") {
  struct Case {
    double value;
    const char* nlohmann;
    const char* shortest;
  };
  const Case cases[] = {
      {1e23, "9.999999999999999e+22", "1e+23"},
      {4.1752050594835e+78, "4.1752050594835004e+78", "4.1752050594835e+78"},
      {3.484060486691407e+210, "3.4840604866914067e+210", "3.484060486691407e+210"},
      {-2.522923758208279e-228, "-2.5229237582082789e-228", "-2.522923758208279e-228"},
      {7.257868702803973e-208, "7.2578687028039734e-208", "7.257868702803973e-208"},
      {3.275597462459049e+16, "3.2755974624590488e+16", "3.275597462459049e+16"},
      // nlohmann's other layouts: digits with a point, and 0.000digits.
      {6779129.030844294, "6779129.0308442935", "6779129.030844294"},
      {34.53853689260227, "34.538536892602266", "34.53853689260227"},
      {0.05006098225077368, "0.050060982250773683", "0.05006098225077368"},
      {-0.0281507900956169, "-0.028150790095616898", "-0.0281507900956169"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.shortest);
    CHECK(Nlohmann(c.value) == c.nlohmann);  // the known bad case is still bad
    CHECK(FloatText(c.value) == c.shortest);
    double back = 0;
    std::from_chars(c.shortest, c.shortest + std::strlen(c.shortest), back);
    CHECK(back == c.value);
  }
}

TEST_CASE("floats: nlohmann's layout, byte for byte") {
  for (double v : {0.5, 3.0, -3.0, 100.0, 0.0002, 0.0001, 1e-05, 1.5e-07, 123456789012345.0,
                   1e15, 1.5e16, 1.2345678901234568e+17, 0.1, 2.5, 1e21, 5e-324,
                   1.7976931348623157e308, 0.0, -0.0, 1e100, 1e-100}) {
    CAPTURE(v);
    CHECK(FloatText(v) == Nlohmann(v));
  }
  CHECK(FloatText(0.0002) == "0.0002");
  CHECK(FloatText(1e-05) == "1e-05");
  CHECK(FloatText(3.0) == "3.0");
  CHECK(FloatText(-0.0) == "-0.0");
  CHECK(FloatText(1e15) == "1e+15");
}

TEST_CASE("floats: random doubles read back, never longer than nlohmann's, else nlohmann's") {
  std::mt19937_64 random(413);
  std::uniform_real_distribution<double> decimal_exponent(-6, 22);
  int shorter = 0;
  for (int i = 0; i < 200000; ++i) {
    // Any bits, or a value in the range nlohmann writes without an exponent.
    double value;
    if (i % 2 == 0) {
      uint64_t bits = random();
      std::memcpy(&value, &bits, sizeof value);
    } else {
      value = std::pow(10.0, decimal_exponent(random));
    }
    if (!std::isfinite(value)) continue;
    std::string ours = FloatText(value);
    std::string theirs = Nlohmann(value);
    double back = 0;
    std::from_chars(ours.data(), ours.data() + ours.size(), back);
    REQUIRE_MESSAGE(back == value, ours);
    std::string our_digits = Digits(ours);
    std::string their_digits = Digits(theirs);
    REQUIRE_MESSAGE(our_digits.size() <= their_digits.size(), ours << " vs " << theirs);
    if (our_digits.size() < their_digits.size()) {
      ++shorter;
    } else {
      REQUIRE_MESSAGE(ours == theirs, ours << " vs " << theirs);
    }
  }
  CHECK(shorter > 0);
}

TEST_CASE("floats: ShortestFloats rewrites the floats of a dump and nothing else") {
  nlohmann::ordered_json j = {{"s", "x\"9.999999999999999e+22\\"},
                              {"l", {1e23, 3, -1.5, 1.0, -0.0, "1e23"}},
                              {"n", {{"deep", 4.1752050594835e+78}}}};
  CHECK(ShortestFloats(j.dump()) ==
        "{\"s\":\"x\\\"9.999999999999999e+22\\\\\",\"l\":[1e+23,3,-1.5,1.0,-0.0,\"1e23\"],"
        "\"n\":{\"deep\":4.1752050594835e+78}}");
  CHECK(ShortestFloats(j.dump(2)).find("9.999999999999999e+22,") == std::string::npos);
}

TEST_CASE("floats: a param default and a foreach element print the shortest digits") {
  auto c = testing::Analyze(R"(flow f {
  param rate: float = 1e23
  param rates: list = [1e23, 0.5]
  step start { run "echo {{rate}} {{rates}}" next each foreach [1e23, 2.0] }
  step each { run "echo {{item}}" next join }
  step join { run "j" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(c->flow.has_value(), c->errors());
  CHECK(c->flow->params[0].default_json == "1e+23");
  CHECK(c->flow->params[1].default_json == "[1e+23,0.5]");
  CHECK(c->flow->steps[0].foreach->items == std::vector<std::string>{"1e+23", "2.0"});
  std::string text = FlowToJsonText(*c->flow);
  CHECK(text.find("\"default\": 1e+23") != std::string::npos);
  CHECK(text.find("9.999999999999999e+22") == std::string::npos);
}

}  // namespace
}  // namespace flowc::ir
