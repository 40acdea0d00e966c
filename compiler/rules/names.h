// Kubernetes' name syntaxes, written once: the predicates and bounds of
// k8s.io/apimachinery/pkg/util/validation/validation.go (IsDNS1123Label, IsDNS1123Subdomain,
// IsDNS1035Label, IsQualifiedName, IsValidLabelValue, IsRelaxedEnvVarName, and IsConfigMapKey's
// bound).
//
// Two callers put what these find into words, and keep nothing of the rules themselves: the graph
// stage (compiler/graph/names.cc), for a flow's author, and `flowc validate`
// (compiler/validate/checks/syntax.cc), in the API server's own words. A fault is found here;
// only its message is theirs. This library sits below both and links nothing of flowc's.
#ifndef FLOWC_RULES_NAMES_H_
#define FLOWC_RULES_NAMES_H_

#include <cstddef>
#include <string_view>

namespace flowc::rules {

// validation.go's bounds.
inline constexpr size_t kDns1123LabelMaxLength = 63;       // DNS1123LabelMaxLength
inline constexpr size_t kDns1123SubdomainMaxLength = 253;  // DNS1123SubdomainMaxLength
inline constexpr size_t kDns1035LabelMaxLength = 63;       // DNS1035LabelMaxLength
inline constexpr size_t kQualifiedNameMaxLength = 63;      // qualifiedNameMaxLength
inline constexpr size_t kLabelValueMaxLength = 63;         // LabelValueMaxLength
// IsConfigMapKey: at most DNS1123SubdomainMaxLength of [-._a-zA-Z0-9].
inline constexpr size_t kConfigMapKeyMaxLength = kDns1123SubdomainMaxLength;

// The regular expressions validation.go checks with (its *Fmt constants), which the API server's
// messages quote. The Match functions below are these expressions, written out.
inline constexpr std::string_view kDns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
inline constexpr std::string_view kDns1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
inline constexpr std::string_view kDns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
inline constexpr std::string_view kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
inline constexpr std::string_view kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";

// Where a value first departs from a syntax's expression, reading from the left. The length
// bound is not part of it: both callers report a value that is too long on its own (validate
// beside a mismatch, the compiler before one).
enum class Mismatch {
  kNone,       // the value matches
  kEmpty,      // the expression needs at least one character
  kEmptyPart,  // a subdomain's part between two dots, or at an end, is empty
  kBadChar,    // a character outside the syntax's set
  kBadEnds,    // a first or last character the syntax allows only inside
};

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
Mismatch MatchDns1123Label(std::string_view value);
// Parts between dots, each a DNS-1123 label; the first part that departs decides.
Mismatch MatchDns1123Subdomain(std::string_view value);
// [a-z]([-a-z0-9]*[a-z0-9])?: a DNS-1123 label whose first character is a letter.
Mismatch MatchDns1035Label(std::string_view value);
// The name part of a qualified name (a label or annotation key, "[prefix/]name"):
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
Mismatch MatchQualifiedNamePart(std::string_view name);
// A label value: empty, or as a qualified name's name part.
Mismatch MatchLabelValue(std::string_view value);

// A label or annotation key split at its first '/': IsQualifiedName checks `prefix` as a DNS-1123
// subdomain and `name` with MatchQualifiedNamePart (a second '/' lands in `name`).
struct QualifiedName {
  bool has_prefix = false;
  std::string_view prefix;
  std::string_view name;
};
QualifiedName SplitQualifiedName(std::string_view value);

// IsRelaxedEnvVarName, the rule of the RelaxedEnvironmentVariableValidation feature: not empty,
// printable ASCII (Go's unicode.IsPrint below MaxASCII: ' ' to '~') other than '='.
bool IsEnvVarName(std::string_view value);

// The character classes the expressions are made of.
inline bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
inline bool IsAlnum(char c) { return IsLowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

}  // namespace flowc::rules

#endif  // FLOWC_RULES_NAMES_H_
