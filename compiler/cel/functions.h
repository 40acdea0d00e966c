// CEL's operators and functions: the standard definitions (cel-spec doc/langdef.md, "Standard
// Definitions") and those of the Kubernetes CEL libraries that CRD rules reach for (strings,
// lists, optional values; k8s.io/apiserver/pkg/cel/library).
//
// parse.cc resolves each call to an Fn once, by name, style (global `size(x)` or receiver
// `x.size()`) and argument count; a name it cannot resolve is a compile error naming it.
// eval.cc evaluates the arguments and calls Call, which never throws: a wrong argument type,
// an overflow or a bad index is an error value.
#ifndef FLOWC_CEL_FUNCTIONS_H_
#define FLOWC_CEL_FUNCTIONS_H_

#include <string>
#include <string_view>
#include <vector>

#include "compiler/cel/value.h"

namespace flowc::cel {

enum class Fn {
  kNone,
  // operators
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kNeg,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kIn,
  // standard functions
  kSize,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kBool,
  kType,
  kDyn,
  kMatches,
  kContains,
  kStartsWith,
  kEndsWith,
  // Kubernetes' strings library (cel-go ext.Strings)
  kLowerAscii,
  kUpperAscii,
  kIndexOf,
  kLastIndexOf,
  kCharAt,
  kSubstring,
  kReplace,
  kSplit,
  kTrim,
  kJoin,
  // Kubernetes' lists library
  kIsSorted,
  kSum,
  kMin,
  kMax,
  // optional values
  kOptionalOf,
  kOptionalNone,
  kOptionalOfNonZero,
  kHasValue,
  kValue,
  kOrValue,
  kOptOr,
};

// The function `name` called as a receiver (`x.name(...)`, argc without the receiver) or
// globally. Fn::kNone, with *error set, when there is no such function with that many
// arguments.
Fn Resolve(std::string_view name, bool receiver, size_t argc, std::string* error);

// Calls fn on evaluated arguments, none of them an error.
Value Call(Fn fn, const std::vector<Value>& args);

// Whether `pattern` is one matches() takes: Go's regexp syntax (RE2, compiler/rules/regexp.h),
// as cel-go compiles it. When it is not, *error says why, worded after Go's regexp errors.
bool CheckRegex(const std::string& pattern, std::string* error);

// The display name of an operator or function, for messages: "_+_", "size".
const char* FnName(Fn fn);

}  // namespace flowc::cel

#endif  // FLOWC_CEL_FUNCTIONS_H_
