#include "compiler/lsp/docs.h"

#include <cmath>

#include <fmt/format.h>

namespace flowc::lsp {
namespace {

std::string Number(double value) {
  if (std::floor(value) == value && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  return fmt::format("{}", value);
}

std::string TypeName(const table::ArgSpec& arg) {
  switch (arg.type) {
    case table::ArgType::kInt:
      return "integer";
    case table::ArgType::kNumber:
      return "number";
    case table::ArgType::kString:
      return "string";
    case table::ArgType::kBool:
      return "bool";
    case table::ArgType::kEnum: {
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
    case table::ArgType::kSize:
      return "size (integer MB, or a quantity string such as \"16Gi\")";
    case table::ArgType::kStringList:
      return "list of strings";
    case table::ArgType::kStringMap:
      return "map of string to string";
    case table::ArgType::kNodeSelector:
      return "map of string to string, or \"k=v,k2=v2\"";
    case table::ArgType::kTolerations:
      return "list of toleration maps";
    case table::ArgType::kSecurityContext:
      return "map";
  }
  return "value";
}

const char* Placement(unsigned placement) {
  if (placement == (table::kOnStep | table::kOnFlow)) return "on a step or on the flow";
  return placement == table::kOnFlow ? "on the flow only" : "on a step only";
}

// The table's phrase as a sentence: a capital first letter and a full stop.
std::string Sentence(std::string_view phrase) {
  std::string out(phrase);
  if (out.empty()) return out;
  if (out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
  if (out.back() != '.') out += '.';
  return out;
}

// The Kubernetes rule a value must also follow (decorator_args.cc checks it), or "".
const char* RuleText(const table::ArgSpec& arg) {
  switch (arg.rule) {
    case table::Rule::kNone:
      return "";
    case table::Rule::kLabel:
      return "a DNS-1123 label (at most 63 lowercase letters, digits and '-', beginning and "
             "ending with a letter or digit)";
    case table::Rule::kSubdomain:
      return "a DNS-1123 subdomain as each name (at most 253 lowercase letters, digits, '-' "
             "and '.')";
    case table::Rule::kAbsolutePath:
      return arg.type == table::ArgType::kStringMap
                 ? "a DNS-1123 label as each claim's name, an absolute path as where it is mounted"
                 : "an absolute path";
    case table::Rule::kLabels:
      return "Kubernetes label keys (`[prefix/]name`) and label values";
    case table::Rule::kAnnotations:
      return "Kubernetes annotation keys (`[prefix/]name`)";
    case table::Rule::kEnvVars:
      return "variable names of printable ASCII other than `=`";
  }
  return "";
}

}  // namespace

std::string ArgumentSummary(const table::ArgSpec& arg) {
  std::string out = TypeName(arg);
  bool numeric = arg.type == table::ArgType::kInt || arg.type == table::ArgType::kNumber ||
                 arg.type == table::ArgType::kSize;
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

std::string DecoratorMarkdown(const table::DecoratorSpec& spec) {
  std::string out =
      fmt::format("**@{}** ({})\n\n{}", spec.name, Placement(spec.placement), Sentence(spec.doc));
  if (!spec.example.empty()) out += fmt::format("\n\n```flow\n{}```", spec.example);
  if (!spec.targets.empty()) out += fmt::format("\n\nOn each target: {}", spec.targets);
  out += "\n\nArguments:";
  for (const table::ArgSpec& arg : spec.args) {
    out += fmt::format("\n- `{}`: {}", arg.name, ArgumentSummary(arg));
  }
  return out;
}

std::string ArgumentMarkdown(const table::DecoratorSpec& spec, const table::ArgSpec& arg) {
  std::string out = fmt::format("**{}** of `@{}`: {}\n\n{}", arg.name, spec.name,
                                ArgumentSummary(arg), Sentence(arg.doc));
  if (std::string_view rule = RuleText(arg); !rule.empty()) {
    out += fmt::format("\n\nAllowed: {}.", rule);
  }
  if (!arg.becomes.empty()) out += fmt::format("\n\nBecomes: {}.", arg.becomes);
  return out;
}

}  // namespace flowc::lsp
