// Kubernetes naming rules, checked where the names are written.
//
// Flow and step names become DNS-1123 labels (lowercase, '_' -> '-');
// labels, annotations, node selectors and tolerations must be keys and
// values the API server accepts. The rules themselves are compiler/rules/names.h's (which
// `flowc validate` checks with too); what is here is how a flow's author is told.
#ifndef FLOWC_GRAPH_NAMES_H_
#define FLOWC_GRAPH_NAMES_H_

#include <string>
#include <string_view>
#include <vector>

#include "compiler/diag/diagnostics.h"

namespace flowc::graph {

// "nightly_Train" -> "nightly-train".
std::string KubernetesName(std::string_view name);

// Each returns "" when `value` is valid, else why it is not, in words for a flow's author.
std::string CheckDns1123Label(std::string_view value);
std::string CheckDns1123Subdomain(std::string_view value);
// A label or annotation key: [prefix/]name.
std::string CheckQualifiedName(std::string_view value);
std::string CheckLabelValue(std::string_view value);
std::string CheckEnvVarName(std::string_view value);

struct Step;

// Reports (E027) a flow or step name whose Kubernetes name `k8s` is not a
// DNS-1123 label; `what` is "flow" or "step".
void CheckKubernetesName(std::string_view what, const std::string& name, const std::string& k8s,
                         diag::SourceRange at, diag::Reporter& report);

// Reports (E028) each step whose Kubernetes name an earlier step has already
// taken. Steps without a name, and those `skip` marks, are left out.
void CheckNameCollisions(const std::vector<Step>& steps, const std::vector<bool>& skip,
                         diag::Reporter& report);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_NAMES_H_
