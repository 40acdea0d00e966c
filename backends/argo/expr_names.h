// The task names Argo's `depends` expressions cannot hold. Used by the Argo
// backend's checks (checks.cc Checker) and the unit tests.
//
// Argo does not read `depends` as a list of names: the controller expands
// each bare task name `a-b` to `(a-b.Succeeded || a-b.Skipped || ...)`
// (workflow/common/ancestry.go GetTaskDependencies, expandDependency),
// rewrites every `-` to `_`, and compiles the result as an expr-lang
// expression over a map from those rewritten names to task results
// (workflow/controller/dag.go evaluateDependsLogic, then
// util/expr/argoexpr/eval.go EvalBool: expr.Compile with expr.Env). Nothing
// else is rewritten, so a task whose rewritten name expr-lang reads as
// something other than a name breaks the expression, and the task that
// depends on it errors at run time ("unable to evaluate expression").
// Such names, from expr-lang's source:
//  - operator words: parser/lexer/state.go identifier() emits `in`, `or`,
//    `and`, `matches`, `contains`, `startsWith`, `endsWith`, `let`, `if`,
//    `else` as operators, and `not` through its not() state;
//  - constants: parser/parser.go parseSecondary() reads `true`, `false` and
//    `nil` as literals and returns before any `.Succeeded` postfix;
//  - a name that starts with a digit: root() lexes it as a number, and
//    scanNumber() rejects the letters after it ("bad number syntax").
// A flowc step name becomes a lowercase DNS-1123 label, so the words that
// can occur are the lowercase ones; a foreach body's task ends in
// `-foreach` and never matches.
#ifndef FLOWC_BACKENDS_ARGO_EXPR_NAMES_H_
#define FLOWC_BACKENDS_ARGO_EXPR_NAMES_H_

#include <string>
#include <string_view>

#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::argo {

// How expr-lang reads `task` (a task name as written in `depends`) when it
// is not a name: "the operator 'in'", "the constant 'nil'", "a number"; ""
// when it reads it as a name.
std::string ExprMisreading(std::string_view task);

// Reports (E050) each step whose own task a `depends` names and expr-lang
// misreads; returns false if it reported any. A step's own task is named in
// a `depends` when a step of the same DAG (the same innermost foreach) comes
// after it, or when it is a foreach step (the task of its body depends on
// it); a step in a foreach body is otherwise named through the body's task
// (layout.h Layout::TaskFor).
bool CheckDependsNames(const ir::Flow& flow, diag::Reporter& report);

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_EXPR_NAMES_H_
