// The table of decorators: each one's name, where it may be written, and its
// arguments with their types, ranges, defaults and the Kubernetes rules their
// values follow, and what each does (`doc`). decorator_args.cc checks written
// decorators against it, decorators.cc resolves a step's configuration from it
// (decorators.h is the interface of all three); the language server
// (compiler/lsp) reads it for hover and completion.
#ifndef FLOWC_GRAPH_DECORATOR_TABLE_H_
#define FLOWC_GRAPH_DECORATOR_TABLE_H_

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "compiler/parse/ast.h"

namespace flowc::graph::decorator_table {

enum class ArgType {
  kInt,              // integer within [min, max]
  kNumber,           // integer or decimal within [min, max]
  kString,           // non-empty string
  kBool,
  kEnum,             // one of `choices`
  kSize,             // integer MB within [min, max], or a quantity string
  kStringList,       // list of strings
  kStringMap,        // map of string to string
  kNodeSelector,     // map of string to string, or "k=v,k2=v2"
  kTolerations,      // list of toleration maps
  kSecurityContext,  // map of the fields of SecurityContextConfig
};

// Kubernetes rules a string argument must also follow.
enum class Rule { kNone, kLabel, kSubdomain, kAbsolutePath, kLabels, kAnnotations, kEnvVars };

inline constexpr double kNoLimit = std::numeric_limits<double>::infinity();

struct ArgSpec {
  std::string_view name;
  ArgType type;
  double min = -kNoLimit;
  double max = kNoLimit;
  std::string_view default_value = {};  // in the flow language, "" for none
  std::string_view choices = {};        // kEnum: "a|b|c"
  Rule rule = Rule::kNone;
  std::string_view help = {};  // for a value out of range or against its rule
  // What the argument does, for people: `flowc lsp` shows it on hover and in completion, so
  // that the editor's help and the checks read one table and never disagree.
  std::string_view doc = {};
  // What the argument becomes in the output, on each target (docs/decorators.md, hover).
  std::string_view becomes = {};
};

enum Placement : unsigned { kOnStep = 1, kOnFlow = 2 };

struct DecoratorSpec {
  std::string_view name;
  unsigned placement;
  std::vector<ArgSpec> args;
  std::string_view doc = {};  // what the decorator does (as ArgSpec::doc)
  std::string_view example = {};  // a whole flow that uses it, ending in a newline
  std::string_view targets = {};  // what it becomes on each target, in Markdown
};

// `spec` with its documentation: keeps the table's rows short.
inline ArgSpec Doc(ArgSpec spec, std::string_view doc, std::string_view becomes = {}) {
  spec.doc = doc;
  spec.becomes = becomes;
  return spec;
}

// Every decorator, in the order their names are listed in diagnostics.
const std::vector<DecoratorSpec>& Table();
const DecoratorSpec* FindDecorator(std::string_view name);
const ArgSpec* FindArg(const DecoratorSpec& spec, std::string_view name);

inline constexpr size_t kNoArg = static_cast<size_t>(-1);

// A spec's arguments by name, found without a search (a search of @kubernetes's ~30 names,
// about 40 times a step, was a fifth of resolving a step), and their table defaults as the
// parser would have produced them. Open addressing on a name's length and end characters
// (std::unordered_map cost 5 % more of `flowc check`, a sorted list and binary search 9 %).
class ArgIndex {
 public:
  explicit ArgIndex(const DecoratorSpec& spec);

  // The position of the argument `name` in spec.args (the first of that name), else kNoArg.
  size_t Find(std::string_view name) const {
    if (name.empty()) return kNoArg;
    for (size_t slot = Hash(name);; slot = (slot + 1) & kMask) {
      uint8_t position = slots_[slot];
      if (position == kEmpty) return kNoArg;
      if (spec_->args[position].name == name) return position;
    }
  }
  // The default of spec.args[position]; nullptr when it has none.
  const ast::Value* Default(size_t position) const {
    return defaults_[position] ? &*defaults_[position] : nullptr;
  }

 private:
  static constexpr size_t kMask = 127;  // 128 slots: far more than a spec's arguments
  static constexpr uint8_t kEmpty = 255;
  static size_t Hash(std::string_view name) {
    return (name.size() * 37 + static_cast<unsigned char>(name.front()) * 7 +
            static_cast<unsigned char>(name.back())) & kMask;
  }

  const DecoratorSpec* spec_;
  std::array<uint8_t, kMask + 1> slots_;
  std::vector<std::optional<ast::Value>> defaults_;
};

// The index of `spec`, made once (a spec of Table() or any other).
const ArgIndex& IndexOf(const DecoratorSpec& spec);
inline size_t ArgPosition(const DecoratorSpec& spec, std::string_view name) {
  return IndexOf(spec).Find(name);
}

}  // namespace flowc::graph::decorator_table

#endif  // FLOWC_GRAPH_DECORATOR_TABLE_H_
