// The `pattern` of a schema, matched as the API server matches it. Kubernetes checks a CRD's
// patterns with Go's regexp package (k8s.io/kube-openapi's validate/values.go,
// MatchString): RE2 syntax, flags such as Kueue's `^(?i)[a-z]...`, UTF-8, unanchored unless
// the pattern anchors itself. valijson's own engine is std::regex (ECMAScript), which reads
// some of those patterns otherwise or not at all, so schema_check.cc applies patterns itself
// with RE2, Go's regexp's model. Used by openapi_to_jsonschema.cc and schema_check.cc.
#ifndef FLOWC_VALIDATE_PATTERN_H_
#define FLOWC_VALIDATE_PATTERN_H_

#include <string>

namespace flowc::validate {

// Whether RE2 compiles `pattern`.
bool PatternCompiles(const std::string& pattern);

// Whether `text` holds a match of `pattern` (Go's MatchString); false when the pattern does
// not compile.
bool PatternMatches(const std::string& pattern, const std::string& text);

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_PATTERN_H_
