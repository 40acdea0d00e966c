// The abstract syntax tree of a .flow file: plain structs, no ANTLR types.
//
// Produced by compiler/parse (Parse), consumed by compiler/graph. Every node
// keeps the SourceRange it came from, so later stages can point at it. The
// tree is exactly what was written: no defaults, no checks beyond syntax.
#ifndef FLOWC_PARSE_AST_H_
#define FLOWC_PARSE_AST_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/diag/source.h"
#include "compiler/support/shared.h"

namespace flowc::ast {

using diag::SourceRange;

struct Identifier {
  std::string name;
  SourceRange range;
};

struct MapEntry;

struct Value {
  enum class Kind : uint8_t { kString, kInt, kFloat, kBool, kNull, kList, kMap };

  // The small fields first: a flow of 100,000 steps holds millions of values.
  Kind kind = Kind::kNull;
  bool raw = false;  // kString: written as """..."""
  bool bool_value = false;
  SourceRange range;
  std::string string;  // kString: decoded text
  int64_t int_value = 0;
  double float_value = 0;
  std::vector<Value> items;       // kList
  std::vector<MapEntry> entries;  // kMap, in written order

  bool is_number() const { return kind == Kind::kInt || kind == Kind::kFloat; }
  double AsDouble() const { return kind == Kind::kInt ? static_cast<double>(int_value) : float_value; }
};

struct MapEntry {
  std::string key;
  SourceRange key_range;
  Value value;
};

// A name in the text of the language: "string", "int", "list", ...
const char* KindName(Value::Kind kind);

struct Argument {
  Identifier name;
  Value value;
};

struct Decorator {
  Identifier name;  // without the '@'
  SourceRange range;  // '@' through the closing ')'
  std::vector<Argument> arguments;
};

struct Param {
  Identifier name;
  std::optional<Identifier> type;
  std::optional<Value> default_value;
  SourceRange range;
};

struct Run {
  Value command;  // a kString, or a kList of what was written
  SourceRange range;
};

struct Next {
  std::vector<Identifier> targets;
  // `next s foreach X`: X is a param name or a literal list.
  std::optional<Identifier> foreach_param;
  Boxed<Value> foreach_list;  // boxed: most steps have none
  SourceRange range;

  bool is_foreach() const { return foreach_param.has_value() || foreach_list.has_value(); }
};

struct Step {
  Identifier name;
  std::vector<Decorator> decorators;
  // The grammar lets a step hold any number of each; graph checks for one.
  std::vector<Run> runs;
  std::vector<Next> nexts;
  SourceRange range;
};

struct Flow {
  Identifier name;
  std::vector<Decorator> decorators;
  std::vector<Param> params;
  std::vector<Step> steps;
  SourceRange range;
};

}  // namespace flowc::ast

#endif  // FLOWC_PARSE_AST_H_
