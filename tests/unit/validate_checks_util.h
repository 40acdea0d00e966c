// What the unit tests of compiler/validate/checks share: YAML documents as the JSON the checks
// read, every finding of a stream as one line each, and apimachinery's long messages.
#ifndef FLOWC_TESTS_UNIT_VALIDATE_CHECKS_UTIL_H_
#define FLOWC_TESTS_UNIT_VALIDATE_CHECKS_UTIL_H_

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler/validate/checks/checks.h"
#include "compiler/validate/schema_store.h"

// A failed CHECK prints the findings, one a line.
namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& lines) {
    std::string out = "{";
    for (const std::string& line : lines) out += "\n  " + line;
    return (out + "\n}").c_str();
  }
};
}  // namespace doctest

namespace flowc::validate::testing {

using nlohmann::json;

// A YAML node as JSON, the plain scalars resolved as Kubernetes reads them (null, booleans,
// integers, floats; quoted scalars stay strings). The tests' documents are small; the
// validator's own reader is compiler/validate's.
inline json ToJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& kv : node) out[kv.first.Scalar()] = ToJson(kv.second);
      return out;
    }
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const auto& item : node) out.push_back(ToJson(item));
      return out;
    }
    case YAML::NodeType::Scalar: {
      const std::string& s = node.Scalar();
      if (node.Tag() != "?") return s;
      if (s == "~" || s == "null") return nullptr;
      if (s == "true" || s == "false") return s == "true";
      if (!s.empty() && std::all_of(s.begin() + (s[0] == '-' ? 1 : 0), s.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
          })) {
        return std::stoll(s);
      }
      char* end = nullptr;
      double d = std::strtod(s.c_str(), &end);
      if (!s.empty() && end == s.c_str() + s.size()) return d;
      return s;
    }
    default:
      return nullptr;
  }
}

inline std::vector<json> Documents(const std::string& yaml) {
  std::vector<json> docs;
  for (const YAML::Node& node : YAML::LoadAll(yaml)) docs.push_back(ToJson(node));
  return docs;
}

inline std::string Line(const Finding& f) {
  return f.path + ": " + f.message + (f.help.empty() ? "" : " [help: " + f.help + "]");
}

// Every finding of CheckSemantics on each document, then of CheckStream, as "docN: line".
inline std::vector<std::string> Check(const std::string& yaml) {
  std::vector<json> docs = Documents(yaml);
  std::vector<std::string> out;
  // The scope of a kind comes from its schema, as in the validator.
  static SchemaStore* store = new SchemaStore("4.1");
  for (size_t i = 0; i < docs.size(); ++i) {
    std::string error;
    const KindSchema* schema = docs[i].is_object() &&
                                       docs[i].value("apiVersion", json()).is_string() &&
                                       docs[i].value("kind", json()).is_string()
                                   ? store->Find(docs[i]["apiVersion"], docs[i]["kind"], &error)
                                   : nullptr;
    bool cluster_scoped = schema != nullptr && schema->scope == "Cluster";
    CheckSemantics(docs[i], cluster_scoped, [&](Finding f) {
      out.push_back((docs.size() > 1 ? "doc" + std::to_string(i + 1) + ": " : "") + Line(f));
    });
  }
  std::vector<const json*> pointers;
  for (const json& d : docs) pointers.push_back(&d);
  CheckStream(pointers, [&](size_t i) {
    return Report([&out, i](Finding f) {
      out.push_back("stream doc" + std::to_string(i + 1) + ": " + Line(f));
    });
  });
  return out;
}

using Lines = std::vector<std::string>;

// apimachinery's messages (validation.go), whose regular expressions would fill every line.
inline const std::string kLabel =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
inline const std::string kSubdomain =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
inline const std::string kDns1035 =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
inline const std::string kNamePart =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
inline const std::string kLabelValue =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

}  // namespace flowc::validate::testing

#endif  // FLOWC_TESTS_UNIT_VALIDATE_CHECKS_UTIL_H_
