#include "compiler/cel/cel.h"

#include <fmt/format.h>

#include "compiler/cel/ast.h"
#include "compiler/cel/eval.h"
#include "compiler/cel/parse.h"

namespace flowc::cel {

Program::Program() = default;
Program::~Program() = default;

Compiled Compile(std::string_view rule) {
  Compiled out;
  out.program = Parse(rule, &out.error);
  return out;
}

namespace {

Result ToResult(const Value& v) {
  if (v.kind == Value::kBool) return {v.b ? Result::kTrue : Result::kFalse, ""};
  if (v.IsError()) return {Result::kError, v.s};
  return {Result::kError, fmt::format("the rule's value is a {}, not a bool", TypeName(v))};
}

}  // namespace

Result Evaluate(const Program& program, const nlohmann::json& self,
                const nlohmann::json* old_self) {
  return ToResult(Run(program, self, old_self));
}

Result EvaluateOptionalOldSelf(const Program& program, const nlohmann::json& self,
                               const nlohmann::json* old_self) {
  return ToResult(Run(program, self, old_self, /*optional_old_self=*/true));
}

bool UsesOldSelf(const Program& program) { return program.uses_old_self; }

StringResult EvaluateString(const Program& program, const nlohmann::json& self,
                            const nlohmann::json* old_self) {
  Value v = Run(program, self, old_self);
  StringResult out;
  if (v.kind == Value::kString) {
    out.ok = true;
    out.value = std::move(v.s);
  } else if (v.IsError()) {
    out.error = v.s;
  } else {
    out.error = fmt::format("the message expression's value is a {}, not a string", TypeName(v));
  }
  return out;
}

}  // namespace flowc::cel
