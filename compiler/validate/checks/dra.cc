// Dynamic resource allocation, resource.k8s.io/v1 (and the v1beta1 shape): the device requests of a
// ResourceClaim or a ResourceClaimTemplate, after k8s pkg/apis/resource/validation/validation.go
// (validateDeviceClaim, validateDeviceRequest, validateExactDeviceRequest,
// validateDeviceSubRequest, validateDeviceConstraint, validateDeviceClaimConfiguration): request
// names are DNS labels and unique, each request sets exactly one of `exactly` and
// `firstAvailable`, a deviceClassName is a DNS subdomain, allocationMode is ExactCount or All and
// count fits it, and constraints and configs name requests of the claim ("req" or "req/sub").
#include <fmt/format.h>

#include "compiler/diag/suggest.h"
#include "compiler/validate/checks/internal.h"

namespace flowc::validate::checks {
namespace {

// validateExactDeviceRequest and validateDeviceSubRequest: the parts a request and a
// subrequest share.
void DeviceRequest(const Sink& sink, const Json& r, const Path& at) {
  const std::string* cls = Str(Get(r, "deviceClassName"));
  if (cls == nullptr || cls->empty()) {
    sink.Add(at.Key("deviceClassName"), "Required value", "name the DeviceClass to allocate from");
  } else {
    ReportInvalid(sink, at.Key("deviceClassName"), *cls, IsDns1123Subdomain(*cls));
  }
  std::string_view mode = StrOr(&r, "allocationMode");
  if (!mode.empty() && mode != "ExactCount" && mode != "All") {
    sink.Add(at.Key("allocationMode"),
             fmt::format("Unsupported value: {}: supported values: \"All\", \"ExactCount\"",
                         Quote(mode)),
             diag::DidYouMean(mode, {"All", "ExactCount"}));
  }
  if (const Json* count = Get(r, "count")) {
    if (mode == "All") {
      sink.Add(at.Key("count"),
               fmt::format("Invalid value: {}: must not be specified when allocationMode is 'All'",
                           Show(*count)));
    } else if (std::optional<long long> n = Int(count); n && *n <= 0) {
      sink.Add(at.Key("count"), fmt::format("Invalid value: {}: must be greater than zero", *n));
    }
  }
  const Json::array_t& selectors = Items(Get(r, "selectors"));
  for (size_t i = 0; i < selectors.size(); ++i) {
    const Json* cel = Get(selectors[i], "cel");
    if (cel == nullptr) continue;
    const std::string* expr = Str(Get(cel, "expression"));
    if (expr == nullptr || expr->find_first_not_of(" \t\r\n") == std::string::npos) {
      sink.Add(at.Key("selectors").Index(i).Key("cel").Key("expression"), "Required value");
    }
  }
}

void RequestName(const Sink& sink, const Json& r, const Path& at, NameSet& seen,
                 std::string* name) {
  const std::string* text = Str(Get(r, "name"));
  if (text == nullptr) return;
  *name = *text;
  ReportInvalid(sink, at.Key("name"), *text, IsDns1123Label(*text));
  if (!seen.insert(*text).second) {
    sink.Add(at.Key("name"), fmt::format("Duplicate value: {}", Quote(*text)));
  }
}

}  // namespace

void CheckResourceClaimSpec(const Sink& sink, const Json& spec, const Path& at, bool flat) {
  const Json* devices = Get(spec, "devices");
  Path devices_at = at.Key("devices");
  NameSet names;       // requests
  NameSet references;  // what a constraint or config may name: "req" and "req/sub"
  const Json::array_t& requests = Items(Get(devices, "requests"));
  for (size_t i = 0; i < requests.size(); ++i) {
    const Json& r = requests[i];
    Path here = devices_at.Key("requests").Index(i);
    std::string name;
    RequestName(sink, r, here, names, &name);
    references.insert(name);
    // v1beta1 keeps the exact request's fields in the request itself; its conversion to the
    // internal type moves them under `exactly`.
    const Json* exactly =
        flat ? (Get(r, "deviceClassName") != nullptr ? &r : nullptr) : Get(r, "exactly");
    std::string_view one = flat ? "deviceClassName" : "exactly";
    const Json::array_t& first = Items(Get(r, "firstAvailable"));
    if (exactly == nullptr && first.empty()) {
      sink.Add(
          here,
          fmt::format("Required value: exactly one of `{}` or `firstAvailable` is required", one),
          flat ? "" : "put deviceClassName, allocationMode and count under `exactly:`");
    } else if (exactly != nullptr && !first.empty()) {
      sink.Add(here, fmt::format("Invalid value: exactly one of `{}` or `firstAvailable` is "
                                 "required, but multiple fields are set",
                                 one));
    }
    if (exactly != nullptr) DeviceRequest(sink, *exactly, flat ? here : here.Key("exactly"));
    NameSet subnames;
    for (size_t j = 0; j < first.size(); ++j) {
      Path sub_at = here.Key("firstAvailable").Index(j);
      std::string sub;
      RequestName(sink, first[j], sub_at, subnames, &sub);
      references.insert(name + "/" + sub);
      DeviceRequest(sink, first[j], sub_at);
    }
  }
  std::vector<std::string_view> choices(references.begin(), references.end());
  for (const char* section : {"constraints", "config"}) {
    const Json::array_t& list = Items(Get(devices, section));
    for (size_t i = 0; i < list.size(); ++i) {
      const Json::array_t& refs = Items(Get(list[i], "requests"));
      for (size_t j = 0; j < refs.size(); ++j) {
        const std::string* ref = Str(&refs[j]);
        if (ref == nullptr || references.count(*ref) > 0) continue;
        sink.Add(devices_at.Key(section).Index(i).Key("requests").Index(j),
                 fmt::format("Invalid value: {}: must be the name of a request in the claim or the "
                             "name of a request and a subrequest separated by '/'",
                             Quote(*ref)),
                 diag::DidYouMean(*ref, choices));
      }
    }
  }
}

}  // namespace flowc::validate::checks
