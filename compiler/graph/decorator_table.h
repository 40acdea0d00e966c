// The table of decorators: each one's name, where it may be written, and its
// arguments with their types, ranges, defaults and the Kubernetes rules their
// values follow. Internal to the decorator checks: decorator_args.cc checks
// written decorators against it, decorators.cc resolves a step's
// configuration from it (decorators.h is the interface of all three).
#ifndef FLOWC_GRAPH_DECORATOR_TABLE_H_
#define FLOWC_GRAPH_DECORATOR_TABLE_H_

#include <limits>
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
};

enum Placement : unsigned { kOnStep = 1, kOnFlow = 2 };

struct DecoratorSpec {
  std::string_view name;
  unsigned placement;
  std::vector<ArgSpec> args;
};

// Every decorator, in the order their names are listed in diagnostics.
const std::vector<DecoratorSpec>& Table();
const DecoratorSpec* FindDecorator(std::string_view name);
const ArgSpec* FindArg(const DecoratorSpec& spec, std::string_view name);
// An argument's table default, as the parser would have produced it.
const ast::Value& Default(const ArgSpec& arg);

}  // namespace flowc::graph::decorator_table

#endif  // FLOWC_GRAPH_DECORATOR_TABLE_H_
