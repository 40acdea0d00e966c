// What the families of checks (names.cc, pod.cc, argo.cc, cron.cc, jobset.cc, dra.cc) share:
// paths into the document, tolerant access to a JSON document of any shape, apimachinery's
// name syntax (syntax.cc) and exact quantities (quantity.cc). Private to
// compiler/validate/checks; checks.h is the library's interface.
#ifndef FLOWC_VALIDATE_CHECKS_INTERNAL_H_
#define FLOWC_VALIDATE_CHECKS_INTERNAL_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/validate/finding.h"

namespace flowc::validate::checks {

using Json = nlohmann::json;
using NameSet = std::set<std::string, std::less<>>;

// A path as finding.h spells it: keys joined by '.', indices as [i], a key holding '.', '[' or
// ']' as ["key"].
class Path {
 public:
  Path() = default;
  Path Key(std::string_view key) const;
  Path Index(size_t index) const;
  const std::string& str() const { return text_; }

 private:
  std::string text_;
};

// Where one document's findings go.
class Sink {
 public:
  explicit Sink(const Report& report) : report_(report) {}
  void Add(const Path& at, std::string message, std::string help = "") const;

 private:
  const Report& report_;
};

// Tolerant access: the member `key` of `j` when `j` is an object holding it and it is not null,
// else nullptr (a wrong type is the schema's to report; an explicit null is dropped by the API
// server).
const Json* Get(const Json* j, std::string_view key);
inline const Json* Get(const Json& j, std::string_view key) { return Get(&j, key); }
// The string `j` holds, or nullptr.
const std::string* Str(const Json* j);
// The items of `j` when it is an array, else none.
const Json::array_t& Items(const Json* j);
// The string member `key` of `j`, or "" when absent or not a string.
std::string_view StrOr(const Json* j, std::string_view key);
// A whole number (not a bool, not 1.5) and its value.
std::optional<long long> Int(const Json* j);

// A value as the API server prints it in "Invalid value: X": strings quoted, the rest as JSON.
std::string Show(const Json& value);
std::string Quote(std::string_view text);
// An Argo `{{...}}` placeholder is resolved at run time: names and quantities that hold one are
// not judged (the conformance kit's rule, README part 3).
bool IsTemplated(std::string_view text);

// apimachinery's name syntax, k8s.io/apimachinery/pkg/util/validation/validation.go: each
// returns what is wrong, in the API server's words, or nothing.
std::vector<std::string> IsDns1123Label(std::string_view value);
std::vector<std::string> IsDns1123Subdomain(std::string_view value);
std::vector<std::string> IsDns1035Label(std::string_view value);
std::vector<std::string> IsQualifiedName(std::string_view value);
std::vector<std::string> IsValidLabelValue(std::string_view value);

// Reports `Invalid value: "<value>": <error>` at `at` for each error.
void ReportInvalid(const Sink& sink, const Path& at, std::string_view value,
                   const std::vector<std::string>& errors, std::string help = "");

// A Kubernetes quantity (k8s.io/apimachinery/pkg/api/resource/quantity.go), exactly: the value
// is sign * digits * 10^exponent, digits without leading zeros ("" for zero).
struct Quantity {
  bool negative = false;
  std::string digits;
  long exponent = 0;
};
// The quantity a YAML value holds (a quantity string, or a number), or nullopt.
std::optional<Quantity> ParseQuantity(const Json& value);
int Compare(const Quantity& a, const Quantity& b);
bool IsWhole(const Quantity& q);

// The families. Each reports through `sink` and skips what has the wrong shape.
void CheckObjectMeta(const Sink& sink, const Json& doc, std::string_view kind, bool cluster_scoped);
void CheckLabelsAndAnnotations(const Sink& sink, const Json& meta, const Path& at,
                               bool allow_templates);
// Labels and annotations of every metadata nested in `node` (pod templates, Argo template
// metadata), below the document's own.
void CheckNestedMetadata(const Sink& sink, const Json& node, const Path& at, bool allow_templates);

// What a container's references may name.
struct PodScope {
  bool allow_templates = false;      // Argo: `{{...}}` names are resolved at run time
  bool skip_name = false;            // Argo names the container itself, or refused its name
  const NameSet* claims = nullptr;   // the pod's resourceClaims; null: not checked
  const NameSet* volumes = nullptr;  // the pod's volumes; null: not checked
};
// `injected`: volumes a controller adds to the pod (JobSet volumeClaimPolicies); null skips the
// volumeMount check (a plugin that injects volumes of its own).
void CheckPodSpec(const Sink& sink, const Json& spec, const Path& at, const NameSet* injected);
void CheckContainer(const Sink& sink, const Json& container, const Path& at, const PodScope& scope);
void CheckResources(const Sink& sink, const Json& resources, const Path& at, const PodScope& scope);
void CheckTolerations(const Sink& sink, const Json* tolerations, const Path& at,
                      bool allow_templates);
void CheckNodeSelector(const Sink& sink, const Json* selector, const Path& at,
                       bool allow_templates);

void CheckArgo(const Sink& sink, const Json& doc, std::string_view kind);
// The Argo workflow spec of a Workflow, WorkflowTemplate, ClusterWorkflowTemplate or
// CronWorkflow, and its path.
const Json* ArgoWorkflowSpec(const Json& doc, std::string_view kind, Path* at);
// `{{inputs.parameters.x}}` and `{{workflow.parameters.x}}` references (argo_params.cc).
void CheckArgoParameters(const Sink& sink, const Json& wf, const Path& at, std::string_view kind);
void CheckCronWorkflow(const Sink& sink, const Json& spec, const Path& at);
// robfig/cron's ParseStandard: "" when `schedule` parses, else its error.
std::string CronScheduleError(std::string_view schedule);

void CheckJobSet(const Sink& sink, const Json& doc);
void CheckTrainJob(const Sink& sink, const Json& doc);
// The Job and Pod names a JobSet named `jobset` generates for `replicated_job`, reported at `at`;
// `what` names what to shorten ("JobSet's name", "TrainJob's name").
void CheckGeneratedNames(const Sink& sink, std::string_view jobset, const Json& replicated_job,
                         const Path& at, std::string_view what);
// `flat`: the resource.k8s.io/v1beta1 shape, deviceClassName in the request itself.
void CheckResourceClaimSpec(const Sink& sink, const Json& spec, const Path& at, bool flat);

}  // namespace flowc::validate::checks

#endif  // FLOWC_VALIDATE_CHECKS_INTERNAL_H_
