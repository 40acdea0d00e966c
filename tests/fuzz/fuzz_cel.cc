// libFuzzer target: arbitrary bytes as a CEL rule, as an x-kubernetes-validations rule of a
// user's --schemas CRD reaches `flowc validate`.
//
// Each input is compiled; one that compiles is evaluated, as a rule and as a
// messageExpression, on a fixed object with a value of every JSON type (and as a transition
// rule with itself as oldSelf), so the evaluator's paths are fuzzed as well as the parser's.
// Run by tests/fuzz/run_fuzz.sh; the seeds in tests/fuzz/cel_corpus are the bundled CRDs'
// rules and the unit tests' expressions.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "compiler/cel/cel.h"

namespace {

const nlohmann::json& Self() {
  static const nlohmann::json self = nlohmann::json::parse(R"({
    "name": "train-1", "n": 3, "big": 9223372036854775807, "u": 18446744073709551615,
    "d": 2.5, "t": true, "nil": null, "s": "héllo",
    "list": [1, 2, 3], "names": ["a", "b"], "empty": [], "obj": {"a": {"b": 1}},
    "items": [{"name": "x", "depends": "y"}, {"name": "1y", "count": 2}]
  })");
  return self;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rule(reinterpret_cast<const char*>(data), size);
  flowc::cel::Compiled compiled = flowc::cel::Compile(rule);
  if (!compiled.program) return 0;
  const nlohmann::json& self = Self();
  flowc::cel::Evaluate(*compiled.program, self, nullptr);
  flowc::cel::Evaluate(*compiled.program, self, &self);
  flowc::cel::EvaluateString(*compiled.program, self["items"], &self);
  return 0;
}
