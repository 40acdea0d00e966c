// The values a CEL expression computes (cel-spec doc/langdef.md, "Values"), and errors.
//
// A list or map read from `self` borrows the JSON node it came from: a rule that looks at
// one field of a large object converts that field only. Lists and maps an expression builds
// own their elements. Errors are values (kError) so that && and || can absorb them, as the
// spec requires. Used by the evaluator (eval.cc) and the function library (functions.cc).
#ifndef FLOWC_CEL_VALUE_H_
#define FLOWC_CEL_VALUE_H_

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace flowc::cel {

struct Value;
using List = std::vector<Value>;
using Map = std::vector<std::pair<Value, Value>>;  // insertion order; keys unique

struct Value {
  enum Kind : uint8_t {
    kNull,
    kBool,
    kInt,
    kUint,
    kDouble,
    kString,
    kBytes,
    kList,
    kMap,
    kType,
    kOptional,
    kError
  };
  Kind kind = kNull;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  std::string s;                         // string, bytes, a type's name, an error's message
  const nlohmann::json* json = nullptr;  // a borrowed list or map
  std::shared_ptr<const List> list;      // an owned list
  std::shared_ptr<const Map> map;        // an owned map
  std::shared_ptr<const Value> opt;      // an optional's value; null for optional.none()

  static Value Null() { return Value(); }
  static Value Bool(bool v) {
    Value x;
    x.kind = kBool;
    x.b = v;
    return x;
  }
  static Value Int(int64_t v) {
    Value x;
    x.kind = kInt;
    x.i = v;
    return x;
  }
  static Value Uint(uint64_t v) {
    Value x;
    x.kind = kUint;
    x.u = v;
    return x;
  }
  static Value Double(double v) {
    Value x;
    x.kind = kDouble;
    x.d = v;
    return x;
  }
  static Value String(std::string v) {
    Value x;
    x.kind = kString;
    x.s = std::move(v);
    return x;
  }
  static Value Bytes(std::string v) {
    Value x;
    x.kind = kBytes;
    x.s = std::move(v);
    return x;
  }
  static Value Type(std::string name) {
    Value x;
    x.kind = kType;
    x.s = std::move(name);
    return x;
  }
  static Value Error(std::string why) {
    Value x;
    x.kind = kError;
    x.s = std::move(why);
    return x;
  }
  static Value OwnedList(List items);
  static Value OwnedMap(Map entries);
  static Value Optional(std::shared_ptr<const Value> v) {
    Value x;
    x.kind = kOptional;
    x.opt = std::move(v);
    return x;
  }

  bool IsError() const { return kind == kError; }
};

// `self` and the nodes under it: JSON integers are int (uint above int64's range), other
// numbers double, arrays lists and objects maps.
Value FromJson(const nlohmann::json& node);

// The CEL type's name, as type() and messages give it: int, list, map, ...
const char* TypeName(const Value& v);

// Lists and maps, borrowed or owned alike.
size_t Size(const Value& list_or_map);
Value ListAt(const Value& list, size_t index);
// The value at `key`, or nullptr-like: found=false. Keys compare as CEL's == does.
Value MapGet(const Value& map, const Value& key, bool* found);
// The value of a string key, without building a key Value: field selection and has().
Value MapField(const Value& map, const std::string& key, bool* found);
// A map's keys, in its order.
std::vector<Value> MapKeys(const Value& map);

// CEL's ==: heterogeneous (values of different types are unequal, numbers compare by value
// across int, uint and double), deep on lists and maps. Errors never reach it.
bool Equal(const Value& a, const Value& b);

// Ordering of two values of comparable types (numbers across types, strings, bytes, bools):
// -1, 0, 1; `ok` is false when they cannot be ordered (different types, NaN).
int Compare(const Value& a, const Value& b, bool* ok);

// A short rendering for messages and string(): 'abc', 12, [1, 2].
std::string Debug(const Value& v);

}  // namespace flowc::cel

#endif  // FLOWC_CEL_VALUE_H_
