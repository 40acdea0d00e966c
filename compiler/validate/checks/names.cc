// Object metadata as the API server checks it on create:
// k8s.io/apimachinery/pkg/api/validation/objectmeta.go (ValidateObjectMetaAccessor: name or
// generateName, namespace, ValidateAnnotations) and
// k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go (ValidateLabels). Custom
// resources go through the same function with NameIsDNSSubdomain
// (k8s.io/apiextensions-apiserver/pkg/registry/customresource/validator.go).
#include <fmt/format.h>

#include <cctype>

#include "compiler/validate/checks/internal.h"

namespace flowc::validate::checks {
namespace {

// objectmeta.go's TotalAnnotationSizeLimitB.
constexpr size_t kTotalAnnotationSizeLimit = 256 * 1024;

// The name rule of a kind: pkg/apis/core/validation/validation.go gives Namespace
// ValidateNamespaceName (a DNS-1123 label) and Service ValidateServiceName (DNS-1035); every
// other kind flowc validate knows, custom resources included, NameIsDNSSubdomain.
std::vector<std::string> NameErrors(std::string_view kind, std::string_view name) {
  if (kind == "Namespace") return IsDns1123Label(name);
  if (kind == "Service") return IsDns1035Label(name);
  return IsDns1123Subdomain(name);
}

// objectmeta.go's maskTrailingDash: a generateName is checked as the name it starts, its
// trailing '-' standing for the random suffix (the function drops the character before the dash
// too, and so does this).
std::string MaskTrailingDash(std::string_view name) {
  if (name.size() > 1 && name.back() == '-') {
    return std::string(name.substr(0, name.size() - 2)) + "a";
  }
  return std::string(name);
}

}  // namespace

void CheckLabelsAndAnnotations(const Sink& sink, const Json& meta, const Path& at,
                               bool allow_templates) {
  if (const Json* labels = Get(meta, "labels"); labels != nullptr && labels->is_object()) {
    for (const auto& [key, value] : labels->items()) {
      const std::string* text = Str(&value);
      if (allow_templates && (IsTemplated(key) || (text != nullptr && IsTemplated(*text)))) {
        continue;
      }
      Path here = at.Key("labels").Key(key);
      ReportInvalid(sink, here, key, IsQualifiedName(key));
      if (text != nullptr) ReportInvalid(sink, here, *text, IsValidLabelValue(*text));
    }
  }
  if (const Json* notes = Get(meta, "annotations"); notes != nullptr && notes->is_object()) {
    size_t total = 0;
    for (const auto& [key, value] : notes->items()) {
      const std::string* text = Str(&value);
      total += key.size() + (text != nullptr ? text->size() : 0);
      if (allow_templates && IsTemplated(key)) continue;
      std::string lower = key;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      ReportInvalid(sink, at.Key("annotations").Key(key), key, IsQualifiedName(lower));
    }
    if (total > kTotalAnnotationSizeLimit) {
      sink.Add(at.Key("annotations"),
               fmt::format("Too long: may not be more than {} bytes", kTotalAnnotationSizeLimit),
               "keep large data in a ConfigMap and name it in an annotation");
    }
  }
}

void CheckObjectMeta(const Sink& sink, const Json& doc, std::string_view kind,
                     bool cluster_scoped) {
  const Json* meta = Get(doc, "metadata");
  Path at = Path().Key("metadata");
  if (meta == nullptr || !meta->is_object()) {
    if (meta == nullptr) {
      sink.Add(at.Key("name"), "Required value: name or generateName is required");
    }
    return;
  }
  const std::string* name = Str(Get(meta, "name"));
  const std::string* generate = Str(Get(meta, "generateName"));
  if (generate != nullptr && !generate->empty()) {
    ReportInvalid(sink, at.Key("generateName"), *generate,
                  NameErrors(kind, MaskTrailingDash(*generate)));
  }
  if (name != nullptr && !name->empty()) {
    ReportInvalid(sink, at.Key("name"), *name, NameErrors(kind, *name));
  } else if (generate == nullptr || generate->empty()) {
    sink.Add(at.Key("name"), "Required value: name or generateName is required");
  }
  // A cluster-scoped object's namespace is cleared before validation and the object created
  // (k8s.io/apiserver/pkg/registry/rest/create.go, BeforeCreate): validate.cc warns (W070).
  if (const std::string* ns = Str(Get(meta, "namespace"));
      ns != nullptr && !ns->empty() && !cluster_scoped) {
    ReportInvalid(sink, at.Key("namespace"), *ns, IsDns1123Label(*ns));
  }
  CheckLabelsAndAnnotations(sink, *meta, at, false);
}

void CheckNestedMetadata(const Sink& sink, const Json& node, const Path& at, bool allow_templates) {
  // Paths are built for the containers only: a scalar cannot hold metadata, and a document of
  // 10,000 steps has hundreds of thousands of them.
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) {
      if (!value.is_structured()) continue;
      Path here = at.Key(key);
      if (key == "metadata" || key == "podMetadata" || key == "workflowMetadata") {
        CheckLabelsAndAnnotations(sink, value, here, allow_templates);
      }
      CheckNestedMetadata(sink, value, here, allow_templates);
    }
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) {
      if (node[i].is_structured()) CheckNestedMetadata(sink, node[i], at.Index(i), allow_templates);
    }
  }
}

}  // namespace flowc::validate::checks
