// Walks a compiled rule (ast.h) on `self`, following the CEL spec's evaluation rules
// (cel-spec doc/langdef.md, "Evaluation"): strict functions, && and || that absorb an error
// when the other side decides, macros that absorb errors as && and || do.
#ifndef FLOWC_CEL_EVAL_H_
#define FLOWC_CEL_EVAL_H_

#include <nlohmann/json.hpp>

#include "compiler/cel/ast.h"

namespace flowc::cel {

// The rule's value; an error value when evaluation fails. old_self null: `oldSelf` is an error,
// unless optional_old_self, which makes `oldSelf` an optional value (none when old_self is null).
Value Run(const Program& program, const nlohmann::json& self, const nlohmann::json* old_self,
          bool optional_old_self = false);

}  // namespace flowc::cel

#endif  // FLOWC_CEL_EVAL_H_
