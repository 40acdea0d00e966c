#include "compiler/cel/functions.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "compiler/cel/library.h"
#include "compiler/rules/regexp.h"

namespace flowc::cel {
namespace {

struct Entry {
  const char* name;
  bool receiver;
  size_t min_args, max_args;  // without the receiver
  Fn fn;
};

// Every function a rule may call. The operators are not here: the parser maps them itself.
constexpr Entry kFunctions[] = {
    {"size", false, 1, 1, Fn::kSize},
    {"size", true, 0, 0, Fn::kSize},
    {"int", false, 1, 1, Fn::kInt},
    {"uint", false, 1, 1, Fn::kUint},
    {"double", false, 1, 1, Fn::kDouble},
    {"string", false, 1, 1, Fn::kString},
    {"bytes", false, 1, 1, Fn::kBytes},
    {"bool", false, 1, 1, Fn::kBool},
    {"type", false, 1, 1, Fn::kType},
    {"dyn", false, 1, 1, Fn::kDyn},
    {"matches", false, 2, 2, Fn::kMatches},
    {"matches", true, 1, 1, Fn::kMatches},
    {"contains", true, 1, 1, Fn::kContains},
    {"startsWith", true, 1, 1, Fn::kStartsWith},
    {"endsWith", true, 1, 1, Fn::kEndsWith},
    {"lowerAscii", true, 0, 0, Fn::kLowerAscii},
    {"upperAscii", true, 0, 0, Fn::kUpperAscii},
    {"indexOf", true, 1, 2, Fn::kIndexOf},
    {"lastIndexOf", true, 1, 2, Fn::kLastIndexOf},
    {"charAt", true, 1, 1, Fn::kCharAt},
    {"substring", true, 1, 2, Fn::kSubstring},
    {"replace", true, 2, 3, Fn::kReplace},
    {"split", true, 1, 2, Fn::kSplit},
    {"trim", true, 0, 0, Fn::kTrim},
    {"join", true, 0, 1, Fn::kJoin},
    {"isSorted", true, 0, 0, Fn::kIsSorted},
    {"sum", true, 0, 0, Fn::kSum},
    {"min", true, 0, 0, Fn::kMin},
    {"max", true, 0, 0, Fn::kMax},
    {"optional.of", false, 1, 1, Fn::kOptionalOf},
    {"optional.none", false, 0, 0, Fn::kOptionalNone},
    {"optional.ofNonZeroValue", false, 1, 1, Fn::kOptionalOfNonZero},
    {"hasValue", true, 0, 0, Fn::kHasValue},
    {"value", true, 0, 0, Fn::kValue},
    {"orValue", true, 1, 1, Fn::kOrValue},
    {"or", true, 1, 1, Fn::kOptOr},
};

Value NoOverload(Fn fn, const std::vector<Value>& args) {
  std::string types;
  for (const Value& a : args) types += (types.empty() ? "" : ", ") + std::string(TypeName(a));
  return Value::Error(fmt::format("no such overload: {}({})", FnName(fn), types));
}

Value Overflow() { return Value::Error("integer overflow"); }

Value Arithmetic(Fn fn, const Value& a, const Value& b, const std::vector<Value>& args) {
  if (a.kind != b.kind) return NoOverload(fn, args);  // CEL has no implicit conversions
  if (a.kind == Value::kInt) {
    int64_t r = 0;
    switch (fn) {
      case Fn::kAdd:
        if (__builtin_add_overflow(a.i, b.i, &r)) return Overflow();
        break;
      case Fn::kSub:
        if (__builtin_sub_overflow(a.i, b.i, &r)) return Overflow();
        break;
      case Fn::kMul:
        if (__builtin_mul_overflow(a.i, b.i, &r)) return Overflow();
        break;
      case Fn::kDiv:
      case Fn::kMod:
        if (b.i == 0) return Value::Error(fn == Fn::kDiv ? "division by zero" : "modulus by zero");
        if (a.i == std::numeric_limits<int64_t>::min() && b.i == -1) return Overflow();
        r = fn == Fn::kDiv ? a.i / b.i : a.i % b.i;
        break;
      default:
        return NoOverload(fn, args);
    }
    return Value::Int(r);
  }
  if (a.kind == Value::kUint) {
    uint64_t r = 0;
    switch (fn) {
      case Fn::kAdd:
        if (__builtin_add_overflow(a.u, b.u, &r)) return Overflow();
        break;
      case Fn::kSub:
        if (__builtin_sub_overflow(a.u, b.u, &r)) return Overflow();
        break;
      case Fn::kMul:
        if (__builtin_mul_overflow(a.u, b.u, &r)) return Overflow();
        break;
      case Fn::kDiv:
      case Fn::kMod:
        if (b.u == 0) return Value::Error(fn == Fn::kDiv ? "division by zero" : "modulus by zero");
        r = fn == Fn::kDiv ? a.u / b.u : a.u % b.u;
        break;
      default:
        return NoOverload(fn, args);
    }
    return Value::Uint(r);
  }
  if (a.kind == Value::kDouble) {  // IEEE 754: no errors, division by zero is an infinity
    switch (fn) {
      case Fn::kAdd:
        return Value::Double(a.d + b.d);
      case Fn::kSub:
        return Value::Double(a.d - b.d);
      case Fn::kMul:
        return Value::Double(a.d * b.d);
      case Fn::kDiv:
        return Value::Double(a.d / b.d);
      default:
        return NoOverload(fn, args);  // no % on doubles
    }
  }
  if (fn != Fn::kAdd) return NoOverload(fn, args);
  if (a.kind == Value::kString || a.kind == Value::kBytes) {
    Value r = a;
    r.s += b.s;
    return r;
  }
  if (a.kind == Value::kList) {
    List items;
    for (size_t i = 0, n = Size(a); i < n; ++i) items.push_back(ListAt(a, i));
    for (size_t i = 0, n = Size(b); i < n; ++i) items.push_back(ListAt(b, i));
    return Value::OwnedList(std::move(items));
  }
  return NoOverload(fn, args);
}

bool IsNumber(const Value& v) {
  return v.kind == Value::kInt || v.kind == Value::kUint || v.kind == Value::kDouble;
}

Value Relation(Fn fn, const Value& a, const Value& b, const std::vector<Value>& args) {
  // NaN is unordered: every comparison with it is false.
  if (IsNumber(a) && IsNumber(b) &&
      ((a.kind == Value::kDouble && std::isnan(a.d)) ||
       (b.kind == Value::kDouble && std::isnan(b.d)))) {
    return Value::Bool(false);
  }
  bool ok;
  int c = Compare(a, b, &ok);
  if (!ok) return NoOverload(fn, args);
  switch (fn) {
    case Fn::kLt:
      return Value::Bool(c < 0);
    case Fn::kLe:
      return Value::Bool(c <= 0);
    case Fn::kGt:
      return Value::Bool(c > 0);
    default:
      return Value::Bool(c >= 0);
  }
}

Value In(const Value& item, const Value& container, const std::vector<Value>& args) {
  if (container.kind == Value::kList) {
    for (size_t i = 0, n = Size(container); i < n; ++i) {
      if (Equal(ListAt(container, i), item)) return Value::Bool(true);
    }
    return Value::Bool(false);
  }
  if (container.kind == Value::kMap) {
    bool found;
    MapGet(container, item, &found);
    return Value::Bool(found);
  }
  return NoOverload(Fn::kIn, args);
}

// Go's strconv.FormatFloat(d, 'g', -1, 64), which cel-go's string(double) uses: the shortest
// text that reads back as d, in exponent form from 1e21.
std::string DoubleText(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", d);
}

Value ToInt(const Value& v, const std::vector<Value>& args) {
  switch (v.kind) {
    case Value::kInt:
      return v;
    case Value::kUint:
      if (v.u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return Overflow();
      return Value::Int(static_cast<int64_t>(v.u));
    case Value::kDouble:
      // -2^63 is an int64, 2^63 is not; NaN fails both tests.
      if (!(v.d >= -9223372036854775808.0 && v.d < 9223372036854775808.0)) {
        return Value::Error("double out of int range");
      }
      return Value::Int(static_cast<int64_t>(v.d));
    case Value::kString: {
      const char* s = v.s.c_str();
      char* end = nullptr;
      errno = 0;
      long long r = std::strtoll(s, &end, 10);
      if (v.s.empty() || *end != '\0' || errno == ERANGE ||
          std::isspace(static_cast<unsigned char>(s[0]))) {
        return Value::Error(fmt::format("cannot convert {} to int", Debug(v)));
      }
      return Value::Int(r);
    }
    default:
      return NoOverload(Fn::kInt, args);
  }
}

Value ToUint(const Value& v, const std::vector<Value>& args) {
  switch (v.kind) {
    case Value::kUint:
      return v;
    case Value::kInt:
      if (v.i < 0) return Value::Error("int out of uint range");
      return Value::Uint(static_cast<uint64_t>(v.i));
    case Value::kDouble:
      if (!(v.d > -1.0 && v.d < 18446744073709551616.0))
        return Value::Error("double out of uint range");
      return Value::Uint(static_cast<uint64_t>(v.d));
    case Value::kString: {
      const char* s = v.s.c_str();
      char* end = nullptr;
      errno = 0;
      unsigned long long r = std::strtoull(s, &end, 10);
      if (v.s.empty() || *end != '\0' || errno == ERANGE ||
          !std::isdigit(static_cast<unsigned char>(s[0]))) {
        return Value::Error(fmt::format("cannot convert {} to uint", Debug(v)));
      }
      return Value::Uint(r);
    }
    default:
      return NoOverload(Fn::kUint, args);
  }
}

Value ToDouble(const Value& v, const std::vector<Value>& args) {
  switch (v.kind) {
    case Value::kDouble:
      return v;
    case Value::kInt:
      return Value::Double(static_cast<double>(v.i));
    case Value::kUint:
      return Value::Double(static_cast<double>(v.u));
    case Value::kString: {
      const char* s = v.s.c_str();
      char* end = nullptr;
      double r = std::strtod(s, &end);
      if (v.s.empty() || *end != '\0' || std::isspace(static_cast<unsigned char>(s[0]))) {
        return Value::Error(fmt::format("cannot convert {} to double", Debug(v)));
      }
      return Value::Double(r);
    }
    default:
      return NoOverload(Fn::kDouble, args);
  }
}

Value ToString(const Value& v, const std::vector<Value>& args) {
  switch (v.kind) {
    case Value::kString:
      return v;
    case Value::kInt:
      return Value::String(std::to_string(v.i));
    case Value::kUint:
      return Value::String(std::to_string(v.u));
    case Value::kDouble:
      return Value::String(DoubleText(v.d));
    case Value::kBool:
      return Value::String(v.b ? "true" : "false");
    case Value::kBytes:
      if (!ValidUtf8(v.s)) return Value::Error("invalid UTF-8 in bytes, cannot convert to string");
      return Value::String(v.s);
    default:
      return NoOverload(Fn::kString, args);
  }
}

Value ToBool(const Value& v, const std::vector<Value>& args) {
  if (v.kind == Value::kBool) return v;
  if (v.kind != Value::kString) return NoOverload(Fn::kBool, args);
  // Go's strconv.ParseBool, which cel-go uses.
  for (const char* t : {"1", "t", "T", "TRUE", "true", "True"})
    if (v.s == t) return Value::Bool(true);
  for (const char* f : {"0", "f", "F", "FALSE", "false", "False"})
    if (v.s == f) return Value::Bool(false);
  return Value::Error(fmt::format("cannot convert {} to bool", Debug(v)));
}

// cel-go's string.Match (common/types/string.go): regexp.MatchString, a search that matches
// anywhere unless the pattern anchors itself.
Value Matches(const Value& text, const Value& pattern, const std::vector<Value>& args) {
  if (text.kind != Value::kString || pattern.kind != Value::kString)
    return NoOverload(Fn::kMatches, args);
  std::string error;
  if (!CheckRegex(pattern.s, &error)) return Value::Error(error);
  return Value::Bool(rules::RegexpMatches(pattern.s, text.s));
}

}  // namespace

Fn Resolve(std::string_view name, bool receiver, size_t argc, std::string* error) {
  bool known = false;
  for (const Entry& e : kFunctions) {
    if (name != e.name) continue;
    known = true;
    if (e.receiver == receiver && argc >= e.min_args && argc <= e.max_args) return e.fn;
  }
  *error = known ? fmt::format("no overload of '{}' takes {} argument{}{}", name, argc,
                               argc == 1 ? "" : "s", receiver ? " and a receiver" : "")
                 : fmt::format(
                       "undeclared function '{}' (flowc's CEL evaluator does not "
                       "support it)",
                       name);
  return Fn::kNone;
}

bool CheckRegex(const std::string& pattern, std::string* error) {
  std::string why;
  if (rules::RegexpCompiles(pattern, &why)) return true;
  // Worded after Go's regexp/syntax Error ("error parsing regexp: CODE: `EXPR`"), which cel-go
  // passes on, with RE2's own description of the fault.
  *error = fmt::format("error parsing regexp '{}': {}", pattern, why);
  return false;
}

const char* FnName(Fn fn) {
  switch (fn) {
    case Fn::kAdd:
      return "_+_";
    case Fn::kSub:
      return "_-_";
    case Fn::kMul:
      return "_*_";
    case Fn::kDiv:
      return "_/_";
    case Fn::kMod:
      return "_%_";
    case Fn::kNeg:
      return "-_";
    case Fn::kEq:
      return "_==_";
    case Fn::kNe:
      return "_!=_";
    case Fn::kLt:
      return "_<_";
    case Fn::kLe:
      return "_<=_";
    case Fn::kGt:
      return "_>_";
    case Fn::kGe:
      return "_>=_";
    case Fn::kIn:
      return "@in";
    default:
      break;
  }
  for (const Entry& e : kFunctions) {
    if (e.fn == fn) return e.name;
  }
  return "?";
}

Value Call(Fn fn, const std::vector<Value>& args) {
  switch (fn) {
    case Fn::kAdd:
    case Fn::kSub:
    case Fn::kMul:
    case Fn::kDiv:
    case Fn::kMod:
      return Arithmetic(fn, args[0], args[1], args);
    case Fn::kNeg:
      if (args[0].kind == Value::kInt) {
        if (args[0].i == std::numeric_limits<int64_t>::min()) return Overflow();
        return Value::Int(-args[0].i);
      }
      if (args[0].kind == Value::kDouble) return Value::Double(-args[0].d);
      return NoOverload(fn, args);
    case Fn::kEq:
      return Value::Bool(Equal(args[0], args[1]));
    case Fn::kNe:
      return Value::Bool(!Equal(args[0], args[1]));
    case Fn::kLt:
    case Fn::kLe:
    case Fn::kGt:
    case Fn::kGe:
      return Relation(fn, args[0], args[1], args);
    case Fn::kIn:
      return In(args[0], args[1], args);
    case Fn::kSize:
      switch (args[0].kind) {
        case Value::kString:
          return Value::Int(static_cast<int64_t>(CodePoints(args[0].s)));
        case Value::kBytes:
          return Value::Int(static_cast<int64_t>(args[0].s.size()));
        case Value::kList:
        case Value::kMap:
          return Value::Int(static_cast<int64_t>(Size(args[0])));
        default:
          return NoOverload(fn, args);
      }
    case Fn::kInt:
      return ToInt(args[0], args);
    case Fn::kUint:
      return ToUint(args[0], args);
    case Fn::kDouble:
      return ToDouble(args[0], args);
    case Fn::kString:
      return ToString(args[0], args);
    case Fn::kBytes:
      if (args[0].kind == Value::kBytes) return args[0];
      if (args[0].kind == Value::kString) return Value::Bytes(args[0].s);
      return NoOverload(fn, args);
    case Fn::kBool:
      return ToBool(args[0], args);
    case Fn::kType:
      return Value::Type(TypeName(args[0]));
    case Fn::kDyn:
      return args[0];
    case Fn::kMatches:
      return Matches(args[0], args[1], args);
    case Fn::kContains:
    case Fn::kStartsWith:
    case Fn::kEndsWith: {
      const Value& s = args[0];
      const Value& t = args[1];
      if (s.kind != Value::kString || t.kind != Value::kString) return NoOverload(fn, args);
      if (fn == Fn::kContains) return Value::Bool(s.s.find(t.s) != std::string::npos);
      if (t.s.size() > s.s.size()) return Value::Bool(false);
      if (fn == Fn::kStartsWith) return Value::Bool(s.s.compare(0, t.s.size(), t.s) == 0);
      return Value::Bool(s.s.compare(s.s.size() - t.s.size(), t.s.size(), t.s) == 0);
    }
    default:
      return CallLibrary(fn, args);
  }
}

}  // namespace flowc::cel
