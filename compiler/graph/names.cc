#include "compiler/graph/names.h"

#include <cctype>

#include <fmt/format.h>

#include "compiler/graph/graph.h"
#include "compiler/support/flat_map.h"

namespace flowc::graph {
namespace {

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string KubernetesName(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    if (c == '_') c = '-';
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string CheckDns1123Label(std::string_view value) {
  if (value.empty()) return "must not be empty";
  if (value.size() > 63) return fmt::format("is {} characters long, more than 63", value.size());
  for (char c : value) {
    if (!IsLowerAlnum(c) && c != '-') {
      return "may contain only lowercase letters, digits and '-'";
    }
  }
  if (value.front() == '-' || value.back() == '-') return "must start and end with a letter or digit";
  return "";
}

std::string CheckDns1123Subdomain(std::string_view value) {
  if (value.empty()) return "must not be empty";
  if (value.size() > 253) return fmt::format("is {} characters long, more than 253", value.size());
  size_t start = 0;
  while (true) {
    size_t dot = value.find('.', start);
    std::string_view part = value.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (part.empty()) return "must not have empty parts between dots";
    for (char c : part) {
      if (!IsLowerAlnum(c) && c != '-') {
        return "may contain only lowercase letters, digits, '-' and '.'";
      }
    }
    if (part.front() == '-' || part.back() == '-') {
      return "must start and end each part with a letter or digit";
    }
    if (dot == std::string_view::npos) return "";
    start = dot + 1;
  }
}

std::string CheckQualifiedName(std::string_view value) {
  std::string_view name = value;
  size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    std::string why = CheckDns1123Subdomain(prefix);
    if (!why.empty()) return fmt::format("has a prefix '{}' that {}", prefix, why);
  }
  if (name.empty()) return "must have a name part";
  if (name.size() > 63) return fmt::format("has a name part of {} characters, more than 63", name.size());
  for (char c : name) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') {
      return "may contain only letters, digits, '-', '_' and '.' (and one '/' after a prefix)";
    }
  }
  if (!IsAlnum(name.front()) || !IsAlnum(name.back())) {
    return "must start and end with a letter or digit";
  }
  return "";
}

std::string CheckLabelValue(std::string_view value) {
  if (value.empty()) return "";
  if (value.size() > 63) return fmt::format("is {} characters long, more than 63", value.size());
  for (char c : value) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') {
      return "may contain only letters, digits, '-', '_' and '.'";
    }
  }
  if (!IsAlnum(value.front()) || !IsAlnum(value.back())) {
    return "must start and end with a letter or digit";
  }
  return "";
}

std::string CheckEnvVarName(std::string_view value) {
  if (value.empty()) return "must not be empty";
  for (char c : value) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7e || c == '=') return "may contain only printable ASCII other than '='";
  }
  return "";
}

void CheckKubernetesName(std::string_view what, const std::string& name, const std::string& k8s,
                         diag::SourceRange at, diag::Reporter& report) {
  std::string why = CheckDns1123Label(k8s);
  if (why.empty()) return;
  auto& d = report(diag::Code::kInvalidName, at,
                   fmt::format("{} name '{}' becomes the Kubernetes name '{}', which {}", what, name,
                               k8s, why));
  if (k8s.size() > 63) {
    d.SetHelp("shorten the name to at most 63 characters");
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
