#include "compiler/graph/names.h"

#include <cctype>

#include <fmt/format.h>

#include "compiler/graph/graph.h"
#include "compiler/rules/names.h"
#include "compiler/support/flat_map.h"

namespace flowc::graph {

std::string KubernetesName(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    if (c == '_') c = '-';
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// The rules are compiler/rules/names.h's; the words below are for a flow's author. Each check
// says first what it finds first: an empty value, then one too long, then the first place the
// value departs from the syntax.

std::string CheckDns1123Label(std::string_view value) {
  rules::Mismatch m = rules::MatchDns1123Label(value);
  if (m == rules::Mismatch::kEmpty) return "must not be empty";
  if (value.size() > rules::kDns1123LabelMaxLength) {
    return fmt::format("is {} characters long, more than {}", value.size(),
                       rules::kDns1123LabelMaxLength);
  }
  if (m == rules::Mismatch::kBadChar) return "may contain only lowercase letters, digits and '-'";
  if (m == rules::Mismatch::kBadEnds) return "must start and end with a letter or digit";
  return "";
}

std::string CheckDns1123Subdomain(std::string_view value) {
  rules::Mismatch m = rules::MatchDns1123Subdomain(value);
  if (m == rules::Mismatch::kEmpty) return "must not be empty";
  if (value.size() > rules::kDns1123SubdomainMaxLength) {
    return fmt::format("is {} characters long, more than {}", value.size(),
                       rules::kDns1123SubdomainMaxLength);
  }
  switch (m) {
    case rules::Mismatch::kEmptyPart:
      return "must not have empty parts between dots";
    case rules::Mismatch::kBadChar:
      return "may contain only lowercase letters, digits, '-' and '.'";
    case rules::Mismatch::kBadEnds:
      return "must start and end each part with a letter or digit";
    default:
      return "";
  }
}

std::string CheckQualifiedName(std::string_view value) {
  rules::QualifiedName key = rules::SplitQualifiedName(value);
  if (key.has_prefix) {
    std::string why = CheckDns1123Subdomain(key.prefix);
    if (!why.empty()) return fmt::format("has a prefix '{}' that {}", key.prefix, why);
  }
  rules::Mismatch m = rules::MatchQualifiedNamePart(key.name);
  if (m == rules::Mismatch::kEmpty) return "must have a name part";
  if (key.name.size() > rules::kQualifiedNameMaxLength) {
    return fmt::format("has a name part of {} characters, more than {}", key.name.size(),
                       rules::kQualifiedNameMaxLength);
  }
  if (m == rules::Mismatch::kBadChar) {
    return "may contain only letters, digits, '-', '_' and '.' (and one '/' after a prefix)";
  }
  if (m == rules::Mismatch::kBadEnds) return "must start and end with a letter or digit";
  return "";
}

std::string CheckLabelValue(std::string_view value) {
  if (value.size() > rules::kLabelValueMaxLength) {
    return fmt::format("is {} characters long, more than {}", value.size(),
                       rules::kLabelValueMaxLength);
  }
  rules::Mismatch m = rules::MatchLabelValue(value);
  if (m == rules::Mismatch::kBadChar) return "may contain only letters, digits, '-', '_' and '.'";
  if (m == rules::Mismatch::kBadEnds) return "must start and end with a letter or digit";
  return "";
}

std::string CheckEnvVarName(std::string_view value) {
  if (value.empty()) return "must not be empty";
  if (!rules::IsEnvVarName(value)) return "may contain only printable ASCII other than '='";
  return "";
}

void CheckKubernetesName(std::string_view what, const std::string& name, const std::string& k8s,
                         diag::SourceRange at, diag::Reporter& report) {
  std::string why = CheckDns1123Label(k8s);
  if (why.empty()) return;
  auto& d = report(diag::Code::kInvalidName, at,
                   fmt::format("{} name '{}' becomes the Kubernetes name '{}', which {}", what, name,
                               k8s, why));
  if (k8s.size() > rules::kDns1123LabelMaxLength) {
    d.SetHelp(fmt::format("shorten the name to at most {} characters",
                          rules::kDns1123LabelMaxLength));
  } else {
    d.SetHelp("start and end the name with a letter or digit");
  }
}

void CheckNameCollisions(const std::vector<Step>& steps, const std::vector<bool>& skip,
                         diag::Reporter& report) {
  FlatMap<std::string_view, size_t> seen(steps.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& step = steps[i];
    if (step.name.empty() || skip[i]) continue;
    auto [first_index, inserted] = seen.try_emplace(step.k8s_name, i);
    if (inserted) continue;
    const Step& first = steps[*first_index];
    report(diag::Code::kNameCollision, step.range,
           fmt::format("steps '{}' and '{}' both become the Kubernetes name '{}'", first.name,
                       step.name, step.k8s_name))
        .AddNote(first.range, fmt::format("'{}' is declared here", first.name))
        .SetHelp("rename one of them");
  }
}

}  // namespace flowc::graph
