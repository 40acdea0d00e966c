// Kubernetes naming rules, checked where the names are written.
//
// Flow and step names become DNS-1123 labels (lowercase, '_' -> '-');
// labels, annotations, node selectors and tolerations must be keys and
// values the API server accepts.
#ifndef FLOWC_GRAPH_NAMES_H_
#define FLOWC_GRAPH_NAMES_H_

#include <string>
#include <string_view>

namespace flowc::graph {

// "nightly_Train" -> "nightly-train".
std::string KubernetesName(std::string_view name);

// Each returns "" when `value` is valid, else why it is not.
std::string CheckDns1123Label(std::string_view value);
std::string CheckDns1123Subdomain(std::string_view value);
// A label or annotation key: [prefix/]name.
std::string CheckQualifiedName(std::string_view value);
std::string CheckLabelValue(std::string_view value);
std::string CheckEnvVarName(std::string_view value);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_NAMES_H_
