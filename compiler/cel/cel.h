// A CEL evaluator for the `x-kubernetes-validations` rules of CRDs.
//
// `flowc validate` (compiler/validate) evaluates every rule of a bundled or user-supplied CRD
// on the JSON value of the node the rule sits on. The language is the subset of CEL
// (github.com/google/cel-spec, doc/langdef.md) plus the Kubernetes CEL libraries that CRD rules
// use; the grammar is grammar/CelLexer.g4 and grammar/CelParser.g4. A rule that uses something
// outside that subset fails to compile, with a message naming what: a caller reports it as an
// error naming the rule, never as a pass.
//
// `self` is the JSON value, typed by JSON: an integer literal in the YAML is an int, a number
// with a fraction or exponent a double. Evaluation never throws.
//
// The API server evaluates rules on the object after defaulting (the schema's `default`s are
// applied when the request is decoded, before validation) and after metadata.name is generated
// from generateName. A caller that evaluates the document as written sees "no such key" errors
// where the server sees the default: e.g. Kueue's ClusterQueue rule on
// `self.reclaimWithinCohort`, a field with `default: Never`.
#ifndef FLOWC_CEL_CEL_H_
#define FLOWC_CEL_CEL_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace flowc::cel {

struct Expr;  // ast.h

// A compiled rule; immutable once compiled, so one Program may be evaluated from many threads.
class Program {
 public:
  Program();
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  std::unique_ptr<Expr> root;
  int slots = 2;  // self, oldSelf, then one per level of nested comprehensions
  bool uses_old_self = false;
};

struct Compiled {
  std::unique_ptr<Program> program;  // null when the rule does not compile
  std::string error;                 // why, when program is null: "undeclared function 'foo'"
};

// Parses and checks a rule (or a messageExpression). Never throws.
Compiled Compile(std::string_view rule);

struct Result {
  enum Kind { kTrue, kFalse, kError } kind;
  std::string error;  // for kError: "no such key: 'replicas'", "integer overflow", ...
};

// Evaluates a rule on `self`; `old_self` is null on create. A rule whose value is not a bool
// is kError. Callers skip transition rules (UsesOldSelf) when old_self is null, as the API
// server does (see UsesOldSelf).
Result Evaluate(const Program& program, const nlohmann::json& self, const nlohmann::json* old_self);

// True when the rule names `oldSelf`. Such a transition rule is not evaluated on create: the
// API server's validator skips it when there is no old object, unless the rule sets
// `optionalOldSelf: true` (kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/
// schema/cel/validation.go, validateExpressions: `if compiled.UsesOldSelf && oldObj == nil`
// ... `if !optionalOldSelfRule { continue }`; "transition rules are evaluated only if there is
// a comparable existing value").
bool UsesOldSelf(const Program& program);

// For a rule with `optionalOldSelf: true`, which the API server evaluates on create too:
// `oldSelf` is an optional value, optional.none() when old_self is null (on create) and
// optional.of(old) otherwise (same file, `ruleActivation` for optionalOldSelfRule).
Result EvaluateOptionalOldSelf(const Program& program, const nlohmann::json& self,
                               const nlohmann::json* old_self);

struct StringResult {
  bool ok = false;
  std::string value;  // the message when ok
  std::string error;  // why not, when !ok (including "not a string")
};

// Evaluates a messageExpression: its value must be a string.
StringResult EvaluateString(const Program& program, const nlohmann::json& self,
                            const nlohmann::json* old_self);

}  // namespace flowc::cel

#endif  // FLOWC_CEL_CEL_H_
