#include "compiler/graph/decorator_docs.h"

#include <cmath>

#include <fmt/format.h>

#include "compiler/rules/names.h"

namespace flowc::graph::decorator_table {
namespace {

std::string Number(double value) {
  if (std::floor(value) == value && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  return fmt::format("{}", value);
}

std::string TypeName(const ArgSpec& arg) {
  switch (arg.type) {
    case ArgType::kInt:
      return "integer";
    case ArgType::kNumber:
      return "number";
    case ArgType::kString:
      return "string";
    case ArgType::kBool:
      return "bool";
    case ArgType::kEnum: {
      std::string choices(arg.choices);
      std::string out = "one of ";
      size_t start = 0;
      for (size_t bar = choices.find('|');; bar = choices.find('|', start)) {
        if (start > 0) out += ", ";
        out += "\"" + choices.substr(start, bar - start) + "\"";
        if (bar == std::string::npos) break;
        start = bar + 1;
      }
      return out;
    }
    case ArgType::kSize:
      return "size (integer MB, or a quantity string such as \"16Gi\")";
    case ArgType::kStringList:
      return "list of strings";
    case ArgType::kStringMap:
      return "map of string to string";
    case ArgType::kNodeSelector:
      return "map of string to string, or \"k=v,k2=v2\"";
    case ArgType::kTolerations:
      return "list of toleration maps";
    case ArgType::kSecurityContext:
      return "map";
  }
  return "value";
}

const char* PlacementText(unsigned placement) {
  if (placement == (kOnStep | kOnFlow)) return "on a step or on the flow";
  return placement == kOnFlow ? "on the flow only" : "on a step only";
}

// The table's phrase as a sentence: a capital first letter and a full stop.
std::string Sentence(std::string_view phrase) {
  std::string out(phrase);
  if (out.empty()) return out;
  if (out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
  if (out.back() != '.') out += '.';
  return out;
}

// The Kubernetes rule a value must also follow (decorator_args.cc checks it, with
// compiler/rules/names.h's bounds), or "".
std::string RuleText(const ArgSpec& arg) {
  switch (arg.rule) {
    case Rule::kNone:
      return "";
    case Rule::kLabel:
      return fmt::format("a DNS-1123 label (at most {} lowercase letters, digits and '-', "
                         "beginning and ending with a letter or digit)",
                         rules::kDns1123LabelMaxLength);
    case Rule::kSubdomain:
      return fmt::format("a DNS-1123 subdomain as each name (at most {} lowercase letters, "
                         "digits, '-' and '.')",
                         rules::kDns1123SubdomainMaxLength);
    case Rule::kAbsolutePath:
      return arg.type == ArgType::kStringMap
                 ? "a DNS-1123 label as each claim's name, an absolute path as where it is mounted"
                 : "an absolute path";
    case Rule::kLabels:
      return "Kubernetes label keys (`[prefix/]name`) and label values";
    case Rule::kAnnotations:
      return "Kubernetes annotation keys (`[prefix/]name`)";
    case Rule::kEnvVars:
      return "variable names of printable ASCII other than `=`";
  }
  return "";
}

}  // namespace

std::string ArgumentSummary(const ArgSpec& arg) {
  std::string out = TypeName(arg);
  bool numeric = arg.type == ArgType::kInt || arg.type == ArgType::kNumber ||
                 arg.type == ArgType::kSize;
  bool low = numeric && std::isfinite(arg.min);
  bool high = numeric && std::isfinite(arg.max);
  if (low && high) {
    out += fmt::format(" from {} to {}", Number(arg.min), Number(arg.max));
  } else if (low) {
    out += fmt::format(" >= {}", Number(arg.min));
  }
  if (!arg.default_value.empty()) out += fmt::format(", default {}", arg.default_value);
  return out;
}

std::string DecoratorMarkdown(const DecoratorSpec& spec) {
  std::string out =
      fmt::format("**@{}** ({})\n\n{}", spec.name, PlacementText(spec.placement),
                  Sentence(spec.doc));
  if (!spec.example.empty()) out += fmt::format("\n\n```flow\n{}```", spec.example);
  if (!spec.targets.empty()) out += fmt::format("\n\nOn each target: {}", spec.targets);
  out += "\n\nArguments:";
  for (const ArgSpec& arg : spec.args) {
    out += fmt::format("\n- `{}`: {}", arg.name, ArgumentSummary(arg));
  }
  return out;
}

std::string ArgumentMarkdown(const DecoratorSpec& spec, const ArgSpec& arg) {
  std::string out = fmt::format("**{}** of `@{}`: {}\n\n{}", arg.name, spec.name,
                                ArgumentSummary(arg), Sentence(arg.doc));
  if (std::string rule = RuleText(arg); !rule.empty()) {
    out += fmt::format("\n\nAllowed: {}.", rule);
  }
  if (!arg.becomes.empty()) out += fmt::format("\n\nBecomes: {}.", arg.becomes);
  return out;
}

}  // namespace flowc::graph::decorator_table
