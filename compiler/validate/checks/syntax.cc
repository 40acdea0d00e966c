// Paths, tolerant JSON access, and apimachinery's name syntax: the rules are those of
// k8s.io/apimachinery/pkg/util/validation/validation.go (IsDNS1123Label, IsDNS1123Subdomain,
// IsDNS1035Label, IsQualifiedName, IsValidLabelValue), checked by compiler/rules/names.h, which
// the compiler checks a flow's names with too; the messages here are validation.go's words,
// RegexError's examples and regex included, so that a user can search for them.
#include <fmt/format.h>

#include "compiler/rules/names.h"
#include "compiler/validate/checks/internal.h"
#include "compiler/validate/path.h"

namespace flowc::validate::checks {
namespace {

bool Matches(rules::Mismatch m) { return m == rules::Mismatch::kNone; }

std::string MaxLenError(size_t length) {
  return fmt::format("must be no more than {} characters", length);
}

// validation.go's RegexError, which writes "'a', " and " or " between examples.
std::string RegexError(std::string_view message, std::string_view regex,
                       std::initializer_list<std::string_view> examples) {
  std::string out(message);
  out += " (e.g. ";
  bool first = true;
  for (std::string_view example : examples) {
    if (!first) out += " or ";
    first = false;
    out += fmt::format("'{}', ", example);
  }
  out += fmt::format("regex used for validation is '{}')", regex);
  return out;
}

}  // namespace

Path Path::Key(std::string_view key) const {
  Path out = *this;
  AppendPathElement(out.text_, validate::Key(std::string(key)));
  return out;
}

Path Path::Index(size_t index) const {
  Path out = *this;
  AppendPathElement(out.text_, validate::Index(index));
  return out;
}

void Sink::Add(const Path& at, std::string message, std::string help) const {
  report_(Finding{at.str(), std::move(message), std::move(help)});
}

const Json* Get(const Json* j, std::string_view key) {
  if (j == nullptr || !j->is_object()) return nullptr;
  auto it = j->find(key);
  if (it == j->end() || it->is_null()) return nullptr;
  return &*it;
}

const std::string* Str(const Json* j) {
  return j != nullptr && j->is_string() ? &j->get_ref<const std::string&>() : nullptr;
}

const Json::array_t& Items(const Json* j) {
  static const Json::array_t kNone;
  return j != nullptr && j->is_array() ? j->get_ref<const Json::array_t&>() : kNone;
}

std::string_view StrOr(const Json* j, std::string_view key) {
  const std::string* s = Str(Get(j, key));
  return s != nullptr ? std::string_view(*s) : std::string_view();
}

std::optional<long long> Int(const Json* j) {
  if (j == nullptr) return std::nullopt;
  if (j->is_number_integer()) return j->get<long long>();
  if (j->is_number_unsigned()) return static_cast<long long>(j->get<unsigned long long>());
  return std::nullopt;
}

std::string Quote(std::string_view text) { return Json(std::string(text)).dump(); }

std::string Show(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool IsTemplated(std::string_view text) { return text.find("{{") != std::string_view::npos; }

std::vector<std::string> IsDns1123Label(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > rules::kDns1123LabelMaxLength) {
    errors.push_back(MaxLenError(rules::kDns1123LabelMaxLength));
  }
  if (!Matches(rules::MatchDns1123Label(value))) {
    errors.push_back(
        RegexError("a lowercase RFC 1123 label must consist of lower case "
                   "alphanumeric characters or '-', and must start and end with an "
                   "alphanumeric character",
                   rules::kDns1123LabelFmt, {"my-name", "123-abc"}));
  }
  return errors;
}

std::vector<std::string> IsDns1123Subdomain(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > rules::kDns1123SubdomainMaxLength) {
    errors.push_back(MaxLenError(rules::kDns1123SubdomainMaxLength));
  }
  if (!Matches(rules::MatchDns1123Subdomain(value))) {
    errors.push_back(RegexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
        "or '.', and must start and end with an alphanumeric character",
        rules::kDns1123SubdomainFmt, {"example.com"}));
  }
  return errors;
}

std::vector<std::string> IsDns1035Label(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > rules::kDns1035LabelMaxLength) {
    errors.push_back(MaxLenError(rules::kDns1035LabelMaxLength));
  }
  if (!Matches(rules::MatchDns1035Label(value))) {
    errors.push_back(
        RegexError("a DNS-1035 label must consist of lower case alphanumeric "
                   "characters or '-', start with an alphabetic character, and end "
                   "with an alphanumeric character",
                   rules::kDns1035LabelFmt, {"my-name", "abc-123"}));
  }
  return errors;
}

std::vector<std::string> IsQualifiedName(std::string_view value) {
  std::vector<std::string> errors;
  rules::QualifiedName key = rules::SplitQualifiedName(value);
  if (key.has_prefix) {
    if (key.name.find('/') != std::string_view::npos) {
      errors.push_back(
          "a qualified name " +
          RegexError("must consist of alphanumeric characters, '-', '_' or '.', and must start "
                     "and end with an alphanumeric character",
                     rules::kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}) +
          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errors;
    }
    if (key.prefix.empty()) {
      errors.push_back("prefix part must be non-empty");
    } else {
      for (const std::string& e : IsDns1123Subdomain(key.prefix)) {
        errors.push_back("prefix part " + e);
      }
    }
  }
  if (key.name.empty()) {
    errors.push_back("name part must be non-empty");
  } else if (key.name.size() > rules::kQualifiedNameMaxLength) {
    errors.push_back("name part " + MaxLenError(rules::kQualifiedNameMaxLength));
  }
  if (!Matches(rules::MatchQualifiedNamePart(key.name))) {
    errors.push_back("name part " +
                     RegexError("must consist of alphanumeric characters, '-', '_' or '.', and "
                                "must start and end with an alphanumeric character",
                                rules::kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}));
  }
  return errors;
}

std::vector<std::string> IsValidLabelValue(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > rules::kLabelValueMaxLength) {
    errors.push_back(MaxLenError(rules::kLabelValueMaxLength));
  }
  if (!Matches(rules::MatchLabelValue(value))) {
    errors.push_back(RegexError(
        "a valid label must be an empty string or consist of alphanumeric "
        "characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character",
        rules::kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errors;
}

void ReportInvalid(const Sink& sink, const Path& at, std::string_view value,
                   const std::vector<std::string>& errors, std::string help) {
  for (const std::string& error : errors) {
    sink.Add(at, fmt::format("Invalid value: {}: {}", Quote(value), error), help);
  }
}

}  // namespace flowc::validate::checks
