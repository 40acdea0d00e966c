// A compiled CEL rule: the expression tree the evaluator walks, with every name resolved.
//
// parse.cc builds it from ANTLR's tree (no ANTLR type leaves parse.cc); eval.cc walks it.
// Identifiers are resolved when compiling, so an unknown variable or function is a compile
// error naming it, never a run-time surprise: `self` and `oldSelf` are slots 0 and 1, each
// comprehension's variable the next slot of its depth.
#ifndef FLOWC_CEL_AST_H_
#define FLOWC_CEL_AST_H_

#include <memory>
#include <string>
#include <vector>

#include "compiler/cel/cel.h"
#include "compiler/cel/functions.h"
#include "compiler/cel/value.h"

namespace flowc::cel {

struct Expr {
  enum Kind {
    kConst,    // constant
    kVar,      // slot
    kSelect,   // args[0].name; optional: args[0].?name
    kHas,      // has(args[0].name)
    kIndex,    // args[0][args[1]]; optional: args[0][?args[1]]
    kCall,     // fn(args...); a receiver call has its receiver as args[0]
    kList,     // [args...]; optional_entries marks [?x]
    kMap,      // {args[0]: args[1], ...}; optional_entries marks {?k: v}
    kAnd,      // args[0] && args[1] && ...
    kOr,       // args[0] || args[1] || ...
    kNot,      // !args[0]
    kTernary,  // args[0] ? args[1] : args[2]
    kMacro,    // args[0].macro(var, args[1][, args[2]])
  };
  enum class Macro { kAll, kExists, kExistsOne, kMap, kMapFilter, kFilter };

  Kind kind = kConst;
  Value constant;
  std::string name;  // a field's name, or the function's for messages
  // A field name as Kubernetes escapes a property's name for CEL (`foo__dash__bar` for
  // `foo-bar`, `__namespace__` for `namespace`): the name it stands for, tried when `name`
  // itself is not a key. Empty when `name` has no escape.
  std::string unescaped;
  int slot = -1;  // kVar; kMacro: the iteration variable's slot
  bool optional = false;
  Fn fn = Fn::kNone;
  Macro macro = Macro::kAll;
  std::vector<bool> optional_entries;
  std::vector<std::unique_ptr<Expr>> args;
};

}  // namespace flowc::cel

#endif  // FLOWC_CEL_AST_H_
