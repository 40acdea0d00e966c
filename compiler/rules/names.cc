#include "compiler/rules/names.h"

namespace flowc::rules {
namespace {

// `value` against [first]([inner]*[last])?, where `inner` is a superset of the two ends' sets.
template <typename First, typename Inner, typename Last>
Mismatch MatchRun(std::string_view value, First first, Inner inner, Last last) {
  if (value.empty()) return Mismatch::kEmpty;
  for (char c : value) {
    if (!inner(c)) return Mismatch::kBadChar;
  }
  if (!first(value.front()) || !last(value.back())) return Mismatch::kBadEnds;
  return Mismatch::kNone;
}

bool IsLabelChar(char c) { return IsLowerAlnum(c) || c == '-'; }
bool IsLowerAlpha(char c) { return c >= 'a' && c <= 'z'; }
bool IsNamePartChar(char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.'; }

}  // namespace

Mismatch MatchDns1123Label(std::string_view value) {
  return MatchRun(value, IsLowerAlnum, IsLabelChar, IsLowerAlnum);
}

Mismatch MatchDns1123Subdomain(std::string_view value) {
  if (value.empty()) return Mismatch::kEmpty;
  for (size_t start = 0;;) {
    size_t dot = value.find('.', start);
    std::string_view part = value.substr(start, dot == std::string_view::npos ? dot : dot - start);
    Mismatch m = MatchDns1123Label(part);
    if (m == Mismatch::kEmpty) return Mismatch::kEmptyPart;
    if (m != Mismatch::kNone) return m;
    if (dot == std::string_view::npos) return Mismatch::kNone;
    start = dot + 1;
  }
}

Mismatch MatchDns1035Label(std::string_view value) {
  return MatchRun(value, IsLowerAlpha, IsLabelChar, IsLowerAlnum);
}

Mismatch MatchQualifiedNamePart(std::string_view name) {
  return MatchRun(name, IsAlnum, IsNamePartChar, IsAlnum);
}

Mismatch MatchLabelValue(std::string_view value) {
  return value.empty() ? Mismatch::kNone : MatchQualifiedNamePart(value);
}

QualifiedName SplitQualifiedName(std::string_view value) {
  size_t slash = value.find('/');
  if (slash == std::string_view::npos) return {false, {}, value};
  return {true, value.substr(0, slash), value.substr(slash + 1)};
}

bool IsEnvVarName(std::string_view value) {
  if (value.empty()) return false;
  for (char c : value) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7e || c == '=') return false;
  }
  return true;
}

}  // namespace flowc::rules
