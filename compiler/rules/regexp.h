// Go's regular expressions (package regexp, RE2 syntax), matched as Kubernetes matches them.
// Two rules of the API server take one:
// - a CRD schema's `pattern` (k8s.io/kube-openapi's validate/values.go, MatchString), applied by
//   `flowc validate`'s schema pass (compiler/validate/schema_check.cc); and
// - CEL's `matches()` in x-kubernetes-validations rules (cel-go's
//   common/types/string.go, which calls regexp.MatchString), applied by compiler/cel.
// Both are RE2 syntax with its flags (Kueue's `^(?i)[a-z]...`), UTF-8, and unanchored unless
// the pattern anchors itself. RE2 (Debian's libre2-dev) is Go's regexp's model, so both are
// matched with it here, once; std::regex (ECMAScript) reads some of those patterns otherwise
// or not at all, and its recursive compiler is no place for a pattern a file brings.
#ifndef FLOWC_RULES_REGEXP_H_
#define FLOWC_RULES_REGEXP_H_

#include <string>

namespace flowc::rules {

// Whether RE2 compiles `pattern`; when it does not and `error` is set, RE2's reason
// ("missing ): (a").
bool RegexpCompiles(const std::string& pattern, std::string* error = nullptr);

// Whether `text` holds a match of `pattern` (Go's MatchString); false when the pattern does
// not compile.
bool RegexpMatches(const std::string& pattern, const std::string& text);

}  // namespace flowc::rules

#endif  // FLOWC_RULES_REGEXP_H_
