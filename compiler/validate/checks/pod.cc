// Pod specs wherever they occur (a Pod, the pod templates of a JobSet or a TrainingRuntime, an
// Argo container): the API server's rules from k8s pkg/apis/core/validation/validation.go —
// ValidateVolumes and validateContainers (names), validateVolumeMounts (a mount names a volume),
// ValidateResourceRequirements and validateContainerResourceName (resource names, quantities,
// requests against limits), validatePodResourceClaims and validateResourceClaimNames,
// validateTolerations, validateContainerPorts and ValidateLabels for nodeSelector.
#include <fmt/format.h>

#include <map>

#include "compiler/diag/suggest.h"
#include "compiler/validate/checks/internal.h"

namespace flowc::validate::checks {
namespace {

bool IsNativeResource(std::string_view name) {
  return name.find('/') == std::string_view::npos ||
         name.find("kubernetes.io/") != std::string_view::npos;
}
bool IsHugePages(std::string_view name) { return name.rfind("hugepages-", 0) == 0; }
// helper.IsExtendedResourceName: not native, no "requests." prefix, and "requests."+name a
// qualified name (the name a ResourceQuota gives it).
bool IsExtendedResource(std::string_view name) {
  return !IsNativeResource(name) && name.rfind("requests.", 0) != 0 &&
         IsQualifiedName("requests." + std::string(name)).empty();
}
// helper.IsOvercommitAllowed: requests below limits are allowed for native resources but
// hugepages; an extended resource (aws.amazon.com/neuron, vpc.amazonaws.com/efa) is a whole
// device, so its request must equal its limit.
bool IsOvercommitAllowed(std::string_view name) {
  return IsNativeResource(name) && !IsHugePages(name);
}

// A value as the message's detail prints it: the YAML's own text.
std::string Text(const Json& value) {
  return value.is_string() ? value.get<std::string>() : Show(value);
}

std::vector<std::string_view> Names(const NameSet& names) {
  return std::vector<std::string_view>(names.begin(), names.end());
}

// validation.IsValidPortName (apimachinery validation.go): an IANA service name.
std::vector<std::string> PortNameErrors(std::string_view name) {
  std::vector<std::string> errors;
  if (name.size() > 15) errors.push_back("must be no more than 15 characters");
  bool alnum_dash = true, letter = false;
  for (char c : name) {
    bool lower = c >= 'a' && c <= 'z';
    letter = letter || lower;
    if (!lower && !(c >= '0' && c <= '9') && c != '-') alnum_dash = false;
  }
  if (!alnum_dash)
    errors.push_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!letter) errors.push_back("must contain at least one letter (a-z)");
  if (name.find("--") != std::string_view::npos)
    errors.push_back("must not contain consecutive hyphens");
  if (!name.empty() && (name.front() == '-' || name.back() == '-')) {
    errors.push_back("must not begin or end with a hyphen");
  }
  return errors;
}

}  // namespace

void CheckResources(const Sink& sink, const Json& resources, const Path& at,
                    const PodScope& scope) {
  struct Parsed {
    Quantity q;
    const Json* value;
  };
  std::map<std::string, Parsed, std::less<>> limits, requests;
  for (const char* section : {"limits", "requests"}) {
    const Json* list = Get(resources, section);
    if (list == nullptr || !list->is_object()) continue;
    auto& parsed = std::string_view(section) == "limits" ? limits : requests;
    for (const auto& [name, value] : list->items()) {
      Path here = at.Key(section).Key(name);
      const std::string* text = Str(&value);
      if (scope.allow_templates && (IsTemplated(name) || (text != nullptr && IsTemplated(*text)))) {
        continue;
      }
      if (name.find('/') == std::string::npos) {
        if (name != "cpu" && name != "memory" && name != "ephemeral-storage" &&
            !IsHugePages(name)) {
          sink.Add(here,
                   fmt::format("Invalid value: {}: must be a standard resource for containers",
                               Quote(name)),
                   diag::DidYouMean(name, {"cpu", "memory", "ephemeral-storage"}));
          continue;
        }
      } else {
        std::vector<std::string> errors = IsQualifiedName(name);
        if (errors.empty() && !IsNativeResource(name) && !IsExtendedResource(name)) {
          errors.push_back("doesn't follow extended resource name standard");
        }
        if (!errors.empty()) {
          ReportInvalid(sink, here, name, errors);
          continue;
        }
      }
      std::optional<Quantity> q = ParseQuantity(value);
      if (!q) {
        sink.Add(here,
                 fmt::format("Invalid value: {}: quantities must match the regular expression "
                             "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
                             Show(value)),
                 "write a quantity such as \"2\", \"500m\" or \"16Gi\"");
        continue;
      }
      if (q->negative) {
        sink.Add(here,
                 fmt::format("Invalid value: {}: must be greater than or equal to 0", Show(value)));
      }
      if (IsExtendedResource(name) && !IsWhole(*q)) {
        sink.Add(here, fmt::format("Invalid value: {}: must be an integer", Show(value)),
                 "an extended resource counts whole devices");
      }
      parsed.emplace(name, Parsed{*q, &value});
    }
  }
  for (const auto& [name, request] : requests) {
    auto limit = limits.find(name);
    Path here = at.Key("requests").Key(name);
    if (limit == limits.end()) {
      if (!IsOvercommitAllowed(name)) {
        sink.Add(at.Key("limits"),
                 fmt::format("Required value: Limit must be set for non overcommitable resources "
                             "({})",
                             name),
                 fmt::format("add {}: {} to limits, the same as the request", name,
                             Show(*request.value)));
      }
      continue;
    }
    int order = Compare(request.q, limit->second.q);
    if (order != 0 && !IsOvercommitAllowed(name)) {
      sink.Add(here,
               fmt::format("Invalid value: {}: must be equal to {} limit of {}",
                           Show(*request.value), name, Text(*limit->second.value)),
               "a device cannot be shared: request and limit the same number");
    } else if (order > 0) {
      sink.Add(here, fmt::format("Invalid value: {}: must be less than or equal to {} limit of {}",
                                 Show(*request.value), name, Text(*limit->second.value)));
    }
  }
  if (scope.claims != nullptr) {
    const Json::array_t& claims = Items(Get(resources, "claims"));
    for (size_t i = 0; i < claims.size(); ++i) {
      const std::string* name = Str(Get(claims[i], "name"));
      if (name == nullptr || scope.claims->count(*name) > 0) continue;
      std::string detail = "must be one of the names in pod.spec.resourceClaims";
      if (scope.claims->empty()) {
        detail += " which is empty";
      } else {
        detail += ": ";
        for (auto it = scope.claims->begin(); it != scope.claims->end(); ++it) {
          detail += (it == scope.claims->begin() ? "" : ", ") + *it;
        }
      }
      sink.Add(at.Key("claims").Index(i).Key("name"),
               fmt::format("Not found: {}: {}", Quote(*name), detail),
               diag::DidYouMean(*name, Names(*scope.claims)));
    }
  }
}

void CheckContainer(const Sink& sink, const Json& container, const Path& at,
                    const PodScope& scope) {
  if (const std::string* name = Str(Get(container, "name"));
      name != nullptr && !scope.skip_name && !(scope.allow_templates && IsTemplated(*name))) {
    ReportInvalid(sink, at.Key("name"), *name, IsDns1123Label(*name));
  }
  if (const Json* resources = Get(container, "resources")) {
    CheckResources(sink, *resources, at.Key("resources"), scope);
  }
  NameSet port_names;
  const Json::array_t& ports = Items(Get(container, "ports"));
  for (size_t i = 0; i < ports.size(); ++i) {
    Path here = at.Key("ports").Index(i);
    if (std::optional<long long> port = Int(Get(ports[i], "containerPort"));
        port && (*port < 1 || *port > 65535)) {
      sink.Add(here.Key("containerPort"),
               fmt::format("Invalid value: {}: must be between 1 and 65535, inclusive", *port));
    }
    const std::string* name = Str(Get(ports[i], "name"));
    if (name == nullptr || name->empty() || (scope.allow_templates && IsTemplated(*name))) continue;
    ReportInvalid(sink, here.Key("name"), *name, PortNameErrors(*name));
    if (!port_names.insert(*name).second) {
      sink.Add(here.Key("name"), fmt::format("Duplicate value: {}", Quote(*name)));
    }
  }
  if (scope.volumes != nullptr) {
    const Json::array_t& mounts = Items(Get(container, "volumeMounts"));
    for (size_t i = 0; i < mounts.size(); ++i) {
      const std::string* name = Str(Get(mounts[i], "name"));
      if (name == nullptr || scope.volumes->count(*name) > 0 ||
          (scope.allow_templates && IsTemplated(*name))) {
        continue;
      }
      std::string help = diag::DidYouMean(*name, Names(*scope.volumes));
      sink.Add(at.Key("volumeMounts").Index(i).Key("name"),
               fmt::format("Not found: {}", Quote(*name)),
               help.empty() ? fmt::format("declare a volume named '{}' in the pod's volumes", *name)
                            : help);
    }
  }
}

void CheckTolerations(const Sink& sink, const Json* tolerations, const Path& at,
                      bool allow_templates) {
  const Json::array_t& list = Items(tolerations);
  for (size_t i = 0; i < list.size(); ++i) {
    const Json& t = list[i];
    Path here = at.Index(i);
    std::string_view key = StrOr(&t, "key"), op = StrOr(&t, "operator"),
                     effect = StrOr(&t, "effect");
    const std::string* value = Str(Get(t, "value"));
    if (!key.empty() && !(allow_templates && IsTemplated(key))) {
      ReportInvalid(sink, here.Key("key"), key, IsQualifiedName(key));
    }
    if (key.empty() && op != "Exists") {
      sink.Add(here.Key("operator"),
               fmt::format("Invalid value: {}: operator must be Exists when `key` is empty, which "
                           "means \"match all values and all keys\"",
                           Quote(op)));
    }
    if (Get(t, "tolerationSeconds") != nullptr && effect != "NoExecute") {
      sink.Add(here.Key("effect"),
               fmt::format("Invalid value: {}: effect must be 'NoExecute' when `tolerationSeconds` "
                           "is set",
                           Quote(effect)));
    }
    // Kubernetes 1.35 added the numeric Lt and Gt operators; their values are numbers.
    if (op.empty() || op == "Equal") {
      if (value != nullptr && !(allow_templates && IsTemplated(*value))) {
        ReportInvalid(sink, here.Key("value"), *value, IsValidLabelValue(*value));
      }
    } else if (op == "Exists") {
      if (value != nullptr && !value->empty()) {
        sink.Add(here.Key("operator"),
                 fmt::format("Invalid value: {}: value must be empty when `operator` is 'Exists'",
                             Quote(*value)),
                 "remove the value, or use operator Equal");
      }
    } else if (op != "Lt" && op != "Gt" && !(allow_templates && IsTemplated(op))) {
      sink.Add(
          here.Key("operator"),
          fmt::format("Unsupported value: {}: supported values: \"Equal\", \"Exists\"", Quote(op)),
          diag::DidYouMean(op, {"Equal", "Exists"}));
    }
    if (!effect.empty() && effect != "NoSchedule" && effect != "PreferNoSchedule" &&
        effect != "NoExecute" && !(allow_templates && IsTemplated(effect))) {
      sink.Add(here.Key("effect"),
               fmt::format("Unsupported value: {}: supported values: \"NoSchedule\", "
                           "\"PreferNoSchedule\", \"NoExecute\"",
                           Quote(effect)),
               diag::DidYouMean(effect, {"NoSchedule", "PreferNoSchedule", "NoExecute"}));
    }
  }
}

void CheckNodeSelector(const Sink& sink, const Json* selector, const Path& at,
                       bool allow_templates) {
  if (selector == nullptr || !selector->is_object()) return;
  for (const auto& [key, value] : selector->items()) {
    const std::string* text = Str(&value);
    if (allow_templates && (IsTemplated(key) || (text != nullptr && IsTemplated(*text)))) continue;
    ReportInvalid(sink, at.Key(key), key, IsQualifiedName(key));
    if (text != nullptr) ReportInvalid(sink, at.Key(key), *text, IsValidLabelValue(*text));
  }
}

void CheckPodSpec(const Sink& sink, const Json& spec, const Path& at, const NameSet* injected) {
  NameSet volumes;
  if (injected != nullptr) volumes = *injected;
  const Json::array_t& volume_list = Items(Get(spec, "volumes"));
  for (size_t i = 0; i < volume_list.size(); ++i) {
    const std::string* name = Str(Get(volume_list[i], "name"));
    if (name == nullptr) continue;
    ReportInvalid(sink, at.Key("volumes").Index(i).Key("name"), *name, IsDns1123Label(*name));
    volumes.insert(*name);
  }
  NameSet claims;
  const Json::array_t& claim_list = Items(Get(spec, "resourceClaims"));
  for (size_t i = 0; i < claim_list.size(); ++i) {
    Path here = at.Key("resourceClaims").Index(i);
    if (const std::string* name = Str(Get(claim_list[i], "name"))) {
      ReportInvalid(sink, here.Key("name"), *name, IsDns1123Label(*name));
      if (!claims.insert(*name).second) {
        sink.Add(here.Key("name"), fmt::format("Duplicate value: {}", Quote(*name)));
      }
    }
    bool by_name = !StrOr(&claim_list[i], "resourceClaimName").empty();
    bool by_template = !StrOr(&claim_list[i], "resourceClaimTemplateName").empty();
    if (!by_name && !by_template) {
      sink.Add(here,
               "Invalid value: must specify one of: `resourceClaimName`, "
               "`resourceClaimTemplateName`");
    } else if (by_name && by_template) {
      sink.Add(here,
               "Invalid value: at most one of `resourceClaimName` or `resourceClaimTemplateName` "
               "may be specified");
    }
  }
  PodScope scope;
  scope.claims = &claims;
  scope.volumes = injected != nullptr ? &volumes : nullptr;
  std::map<std::string, std::string, std::less<>> container_lists;  // name -> its list
  for (const char* field : {"initContainers", "containers", "ephemeralContainers"}) {
    const Json::array_t& containers = Items(Get(spec, field));
    for (size_t i = 0; i < containers.size(); ++i) {
      Path here = at.Key(field).Index(i);
      // A duplicate within one list is the schema's (a list-map keyed on name); across the
      // lists it is validateContainers'.
      if (const std::string* name = Str(Get(containers[i], "name"))) {
        auto [it, added] = container_lists.emplace(*name, field);
        if (!added && it->second != field) {
          sink.Add(here.Key("name"), fmt::format("Duplicate value: {}", Quote(*name)),
                   fmt::format("'{}' also names a container of {}", *name, it->second));
        }
      }
      CheckContainer(sink, containers[i], here, scope);
    }
  }
  if (const Json* resources = Get(spec, "resources")) {
    CheckResources(sink, *resources, at.Key("resources"), scope);
  }
  CheckTolerations(sink, Get(spec, "tolerations"), at.Key("tolerations"), false);
  CheckNodeSelector(sink, Get(spec, "nodeSelector"), at.Key("nodeSelector"), false);
}

}  // namespace flowc::validate::checks
