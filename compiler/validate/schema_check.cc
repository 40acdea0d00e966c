#include "compiler/validate/schema_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <locale>
#include <mutex>
#include <regex>
#include <set>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "compiler/diag/suggest.h"
#include "compiler/validate/cel_rules.h"
#include "compiler/validate/json_util.h"
#include "compiler/validate/openapi_to_jsonschema.h"
#include "compiler/validate/path.h"
#include "compiler/rules/regexp.h"

namespace flowc::validate {
namespace {

using nlohmann::json;

// A schema node with its $ref followed (to "#/definitions/NAME" or a JSON pointer of the root).
const json* Resolve(const json& root, const json* node) {
  for (int hops = 0; node != nullptr && node->is_object() && hops < 16; ++hops) {
    auto ref = node->find("$ref");
    if (ref == node->end() || !ref->is_string()) return node;
    const std::string& text = ref->get_ref<const std::string&>();
    if (text.size() < 2 || text[0] != '#') return nullptr;
    json::json_pointer pointer(text.substr(1));
    if (!root.contains(pointer)) return nullptr;
    node = &root.at(pointer);
  }
  return node;
}

const json* Member(const json& node, const char* key) {
  auto it = node.find(key);
  return it == node.end() ? nullptr : &*it;
}

// The schema of the member `key` of an object checked by `node`, or null.
const json* PropertySchema(const json& root, const json& node, const std::string& key) {
  if (const json* props = Member(node, "properties"); props != nullptr && props->is_object()) {
    if (auto it = props->find(key); it != props->end()) return Resolve(root, &*it);
  }
  if (const json* extra = Member(node, "additionalProperties");
      extra != nullptr && extra->is_object()) {
    return Resolve(root, extra);
  }
  return nullptr;
}

const json* ItemSchema(const json& root, const json& node) {
  const json* items = Member(node, "items");
  return items != nullptr && items->is_object() ? Resolve(root, items) : nullptr;
}

// --- Preparing the document ---------------------------------------------------------------

// The document the API server validates, made in place: nulls in mappings dropped, defaults
// filled in.
void Prepare(const json& root, const json* schema, json& value) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end();) {
      if (it->is_null()) {
        it = value.erase(it);
        continue;
      }
      const json* child = schema != nullptr ? PropertySchema(root, *schema, it.key()) : nullptr;
      Prepare(root, child, *it);
      ++it;
    }
    if (schema != nullptr) {
      if (const json* props = Member(*schema, "properties");
          props != nullptr && props->is_object()) {
        for (auto it = props->begin(); it != props->end(); ++it) {
          const json* child = Resolve(root, &*it);
          if (child == nullptr || !child->contains("x-flowc-default") || value.contains(it.key())) {
            continue;
          }
          json filled = (*child)["x-flowc-default"];
          Prepare(root, child, filled);
          value[it.key()] = std::move(filled);
        }
      }
    }
  } else if (value.is_array()) {
    const json* item = schema != nullptr ? ItemSchema(root, *schema) : nullptr;
    for (json& v : value) Prepare(root, item, v);
  }
}

// --- valijson's findings, in the API server's words ------------------------------------------

std::string Short(const json& value, size_t limit = 60) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > limit) text = text.substr(0, limit - 3) + "...";
  return text;
}

std::string TypeName(const json& value) {
  if (value.is_null()) return "null";
  if (value.is_boolean()) return "boolean";
  if (value.is_number_integer()) return "integer";
  if (value.is_number()) return "number";
  if (value.is_string()) return "string";
  if (value.is_array()) return "array";
  return "object";
}

std::string Number(const json& n) { return n.is_number() ? n.dump() : "?"; }

// valijson's context ("<root>", "[spec]", "[templates]", "[2]") as a path: a step into an
// array is an index.
Path ContextPath(const std::vector<std::string>& context, const json& doc) {
  Path path;
  const json* at = &doc;
  for (size_t i = 1; i < context.size(); ++i) {
    std::string step = context[i];
    if (step.size() >= 2 && step.front() == '[' && step.back() == ']')
      step = step.substr(1, step.size() - 2);
    if (at != nullptr && at->is_array()) {
      size_t index = std::strtoul(step.c_str(), nullptr, 10);
      path.push_back(Index(index));
      at = index < at->size() ? &(*at)[index] : nullptr;
    } else {
      path.push_back(Key(step));
      at = at != nullptr && at->is_object() && at->contains(step) ? &(*at)[step] : nullptr;
    }
  }
  return path;
}

const json* ValueAt(const json& doc, const Path& path) {
  const json* at = &doc;
  for (const PathElement& e : path) {
    if (e.is_index) {
      if (!at->is_array() || e.index >= at->size()) return nullptr;
      at = &(*at)[e.index];
    } else {
      if (!at->is_object() || !at->contains(e.key)) return nullptr;
      at = &(*at)[e.key];
    }
  }
  return at;
}

const json* SchemaAt(const json& root, const json& doc, const Path& path) {
  const json* schema = Resolve(root, &root);
  const json* value = &doc;
  for (const PathElement& e : path) {
    if (schema == nullptr || value == nullptr) return nullptr;
    if (e.is_index) {
      schema = ItemSchema(root, *schema);
      value = value->is_array() && e.index < value->size() ? &(*value)[e.index] : nullptr;
    } else {
      schema = PropertySchema(root, *schema, e.key);
      value = value->is_object() && value->contains(e.key) ? &(*value)[e.key] : nullptr;
    }
  }
  return schema;
}

std::string Expected(const json& type) {
  if (type.is_string()) return type.get<std::string>();
  std::string out;
  for (const json& t : type) {
    if (t == "null") continue;
    if (!out.empty()) out += " or ";
    out += t.get<std::string>();
  }
  return out;
}

// One valijson error in the API server's words; false for the errors valijson adds above a
// failing member ("Failed to validate against schema associated with property name ...").
bool Rephrase(const std::string& description, const json& root, const json& doc, Path& path,
              std::string* message) {
  const json* value = ValueAt(doc, path);
  const json* schema = SchemaAt(root, doc, path);
  auto starts = [&](std::string_view prefix) { return description.rfind(prefix, 0) == 0; };
  if (starts("Missing required property '")) {
    size_t begin = std::string_view("Missing required property '").size();
    size_t end = description.rfind('\'');
    path.push_back(Key(description.substr(begin, end > begin ? end - begin : 0)));
    *message = "Required value";
    return true;
  }
  if (value == nullptr) return false;
  if (starts("Value type not permitted by 'type' constraint")) {
    json type = schema != nullptr ? schema->value("type", json()) : json();
    if (type.is_array() && type.size() == 2 && type[0] == "integer" && type[1] == "string") {
      *message = fmt::format("Invalid value: {}: must be an integer or a string, got {}",
                             Short(*value), TypeName(*value));
    } else {
      *message = fmt::format("Invalid value: {}: must be of type {}, got {}", Short(*value),
                             type.is_null() ? "?" : Expected(type), TypeName(*value));
    }
    return true;
  }
  if (starts("Failed to match against any enum values")) {
    std::string supported;
    if (schema != nullptr && schema->contains("enum")) {
      for (const json& v : (*schema)["enum"]) {
        if (!supported.empty()) supported += ", ";
        supported += Short(v, 200);
      }
    }
    *message = fmt::format("Unsupported value: {}: supported values: {}", Short(*value), supported);
    return true;
  }
  if (schema == nullptr) schema = &root;
  if (starts("Expected number less than or equal to") || starts("Expected number less than")) {
    *message = fmt::format("Invalid value: {}: must be less than {}{}", Short(*value),
                           Bool(*schema, "exclusiveMaximum", false) ? "" : "or equal to ",
                           Number(schema->value("maximum", json())));
    return true;
  }
  if (starts("Expected number greater than or equal to") ||
      starts("Expected number greater than")) {
    *message = fmt::format("Invalid value: {}: must be greater than {}{}", Short(*value),
                           Bool(*schema, "exclusiveMinimum", false) ? "" : "or equal to ",
                           Number(schema->value("minimum", json())));
    return true;
  }
  if (starts("Array should contain no more than")) {
    *message = fmt::format("Too many: {}: must have at most {} items", value->size(),
                           Number(schema->value("maxItems", json())));
    return true;
  }
  if (starts("Array should contain no fewer than")) {
    *message = fmt::format("Invalid value: {} items: must have at least {} items", value->size(),
                           Number(schema->value("minItems", json())));
    return true;
  }
  if (starts("String should be no more than")) {
    *message = fmt::format("Too long: may not be more than {} bytes",
                           Number(schema->value("maxLength", json())));
    return true;
  }
  if (starts("String should be no fewer than")) {
    *message = fmt::format("Invalid value: {}: must be at least {} characters", Short(*value),
                           Number(schema->value("minLength", json())));
    return true;
  }
  if (starts("Object should have no fewer than")) {
    *message = fmt::format("Invalid value: {}: must have at least {} properties", Short(*value),
                           Number(schema->value("minProperties", json())));
    return true;
  }
  if (starts("Object should have no more than")) {
    *message = fmt::format("Too many: {}: must have at most {} properties", value->size(),
                           Number(schema->value("maxProperties", json())));
    return true;
  }
  if (starts("Failed to validate") || starts("Cannot validate item")) return false;
  *message = fmt::format("Invalid value: {}: {}", Short(*value, 40), description);
  return true;
}

// --- What the API server adds to JSON Schema ---------------------------------------------------

bool IsBase64(const std::string& s) {
  // Go's base64.StdEncoding: padded, the standard alphabet; what Secret.data holds.
  if (s.size() % 4 != 0) return false;
  size_t pad = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                 c == '+' || c == '/';
    if (c == '=') {
      if (i + 2 < s.size()) return false;
      ++pad;
    } else if (!alpha || pad > 0) {
      return false;
    }
  }
  return pad <= 2;
}

bool IsDateTime(const std::string& s) {
  // RFC 3339, as apimachinery's strfmt "date-time".
  static const std::regex kDateTime(
      "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt "
      "][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$");
  return std::regex_match(s, kDateTime);
}

class Walker {
 public:
  Walker(const json& root, const Report& report, const Report& rule)
      : root_(root), report_(report), rule_(rule) {}

  void Walk(const json* schema, const json& value, Path& path) {
    schema = Resolve(root_, schema);
    if (schema == nullptr || !schema->is_object() || value.is_null()) return;
    Format(*schema, value, path);
    if (value.is_object()) {
      bool strict = Bool(*schema, "x-flowc-strict", false);
      const json* known = Member(*schema, "x-flowc-known");
      auto is_known = [known](const std::string& key) {
        return known != nullptr && known->is_array() &&
               std::find(known->begin(), known->end(), key) != known->end();
      };
      for (auto it = value.begin(); it != value.end(); ++it) {
        const json* child = PropertySchema(root_, *schema, it.key());
        path.push_back(Key(it.key()));
        if (child == nullptr && strict && !is_known(it.key())) {
          std::vector<std::string_view> names;
          if (known != nullptr && known->is_array()) {
            for (const json& k : *known) {
              if (k.is_string()) names.push_back(k.get_ref<const std::string&>());
            }
          }
          report_(Finding{FormatPath(path), fmt::format("unknown field \"{}\"", it.key()),
                          diag::DidYouMean(it.key(), names)});
        } else if (child != nullptr) {
          Walk(child, *it, path);
        }
        path.pop_back();
      }
    } else if (value.is_array()) {
      ListType(*schema, value, path);
      if (const json* item = ItemSchema(root_, *schema)) {
        for (size_t i = 0; i < value.size(); ++i) {
          path.push_back(Index(i));
          Walk(item, value[i], path);
          path.pop_back();
        }
      }
    }
    if (const json* rules = Member(*schema, "x-kubernetes-validations")) {
      EvaluateRules(*rules, *schema, value, path, rule_);
    }
  }

 private:
  void Format(const json& schema, const json& value, const Path& path) {
    if (const json* pattern = Member(schema, "x-flowc-pattern");
        pattern != nullptr && pattern->is_string() && value.is_string()) {
      const std::string& p = pattern->get_ref<const std::string&>();
      if (!rules::RegexpMatches(p, value.get_ref<const std::string&>())) {
        report_(Finding{FormatPath(path),
                        p == kQuantityPattern
                            ? fmt::format("Invalid value: {}: not a valid quantity", Short(value))
                            : fmt::format("Invalid value: {}: must match {}", Short(value), p),
                        ""});
      }
    }
    if (const json* bad = Member(schema, "x-flowc-unsupported-pattern");
        bad != nullptr && value.is_string()) {
      report_(Finding{
          FormatPath(path),
          fmt::format("the schema's pattern {} cannot be checked by flowc", Short(*bad)), ""});
    }
    const json* format = Member(schema, "x-flowc-format");
    if (format == nullptr || !format->is_string()) return;
    const std::string& f = format->get_ref<const std::string&>();
    std::string what;
    if (f == "int32" && value.is_number_integer()) {
      bool fits = value.is_number_unsigned() ? value.get<uint64_t>() <= 2147483647u
                                             : value.get<int64_t>() >= -2147483648LL &&
                                                   value.get<int64_t>() <= 2147483647LL;
      if (!fits) what = "a 32-bit integer";
    } else if (f == "int64" && value.is_number_unsigned()) {
      if (value.get<uint64_t>() > 9223372036854775807ULL) what = "a 64-bit integer";
    } else if (f == "byte" && value.is_string()) {
      if (!IsBase64(value.get_ref<const std::string&>())) what = "base64-encoded data";
    } else if (f == "date-time" && value.is_string()) {
      if (!IsDateTime(value.get_ref<const std::string&>())) what = "an RFC 3339 date-time";
    }
    if (!what.empty()) {
      report_(Finding{FormatPath(path),
                      fmt::format("Invalid value: {}: must be {}", Short(value), what), ""});
    }
  }

  // x-kubernetes-list-type: a set holds no value twice; a map no two items with the same keys
  // (apiextensions-apiserver pkg/apiserver/schema/listtype/validation.go).
  void ListType(const json& schema, const json& value, Path& path) {
    std::string type = Str(schema, "x-kubernetes-list-type");
    if (type == "set") {
      std::set<std::string> seen;
      for (size_t i = 0; i < value.size(); ++i) {
        std::string key = value[i].dump();
        if (!seen.insert(key).second) {
          path.push_back(Index(i));
          report_(Finding{FormatPath(path), "Duplicate value: " + Short(value[i]), ""});
          path.pop_back();
        }
      }
    } else if (type == "map") {
      json keys = schema.value("x-kubernetes-list-map-keys", json::array());
      std::map<std::string, size_t> seen;
      for (size_t i = 0; i < value.size(); ++i) {
        if (!value[i].is_object()) continue;
        json tuple = json::array();
        std::string described;
        for (const json& k : keys) {
          if (!k.is_string()) continue;
          json v = value[i].value(k.get<std::string>(), json());
          if (!described.empty()) described += ", ";
          described += fmt::format("{}={}", k.get<std::string>(), Short(v));
          tuple.push_back(std::move(v));
        }
        auto [it, inserted] = seen.emplace(tuple.dump(), i);
        if (!inserted) {
          path.push_back(Index(i));
          report_(Finding{FormatPath(path),
                          fmt::format("Duplicate value: entry with {} already at index {}",
                                      described, it->second),
                          ""});
          path.pop_back();
        }
      }
    }
  }

  const json& root_;
  const Report& report_;
  const Report& rule_;
};

}  // namespace

void PrepareForThreads() {
  static std::once_flag once;
  std::call_once(once, [] {
    const auto& ctype = std::use_facet<std::ctype<char>>(std::locale());
    for (int c = 0; c < 256; ++c) ctype.narrow(static_cast<char>(c), '\0');
  });
}

TranslatedSchema PrepareDocument(const KindSchema& schema, json& doc) {
  json shape = ShapeOf(doc);
  OpenApiTranslator translator(schema.definitions, schema.shared, &schema.fallbacks);
  TranslatedSchema out{schema.kind, schema.openapi != nullptr
                                        ? translator.CrdRoot(*schema.openapi, schema.kind, shape)
                                        : translator.DefinitionRoot(schema.definition, shape)};
  Prepare(out.root, &out.root, doc);
  return out;
}

void CheckSchema(const TranslatedSchema& schema, const json& doc, const Report& report,
                 const Report& rule, bool parallel) {
  const json& root = schema.root;
  // The walk reads what valijson reads and writes nothing they share; on its own thread its
  // findings wait in `walked` (in the order made) and follow valijson's, as on one thread.
  using Made = std::pair<bool, Finding>;  // true: a CEL rule's
  std::vector<Made> walked;
  auto walk = [&](const Report& to_report, const Report& to_rule) {
    Walker walker(root, to_report, to_rule);
    Path path;
    walker.Walk(&root, doc, path);
  };
  std::future<void> walking;
  if (parallel) {
    PrepareForThreads();
    walking = std::async(std::launch::async, [&] {
      walk([&](Finding f) { walked.emplace_back(false, std::move(f)); },
           [&](Finding f) { walked.emplace_back(true, std::move(f)); });
    });
  }
  valijson::ValidationResults results;
  try {
    valijson::Schema parsed;
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft4);
    valijson::adapters::NlohmannJsonAdapter schema_adapter(root);
    parser.populateSchema(schema_adapter, parsed);
    // One validator for each thread of the run: it keeps the std::regex of every pattern it
    // has applied, and compiling them again for each document cost more than applying them.
    thread_local valijson::Validator validator(valijson::Validator::kStrongTypes);
    valijson::adapters::NlohmannJsonAdapter adapter(doc);
    validator.validate(parsed, adapter, &results);
  } catch (const std::exception& e) {
    report(Finding{"", fmt::format("the schema of {} cannot be checked: {}", schema.kind, e.what()),
                   ""});
  }
  std::set<std::pair<std::string, std::string>> seen;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    Path path = ContextPath(error.context, doc);
    std::string message;
    if (!Rephrase(error.description, root, doc, path, &message)) continue;
    std::string where = FormatPath(path);
    if (!seen.emplace(where, message).second) continue;
    report(Finding{where, message, ""});
  }
  if (!parallel) {
    walk(report, rule);
    return;
  }
  walking.get();
  for (Made& m : walked) (m.first ? rule : report)(std::move(m.second));
}

}  // namespace flowc::validate
