// Walks a compiled rule (ast.h) on `self`, following the CEL spec's evaluation rules
// (cel-spec doc/langdef.md, "Evaluation"): strict functions, && and || that absorb an error
// when the other side decides, macros that absorb errors as && and || do.
#ifndef FLOWC_CEL_EVAL_H_
#define FLOWC_CEL_EVAL_H_

#include <nlohmann/json.hpp>

#include "compiler/cel/ast.h"

namespace flowc::cel {

// The rule's value; an error value when evaluation fails. old_self null: `oldSelf` is an error.
Value Run(const Program& program, const nlohmann::json& self, const nlohmann::json* old_self);

}  // namespace flowc::cel

#endif  // FLOWC_CEL_EVAL_H_
