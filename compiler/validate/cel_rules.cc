#include "compiler/validate/cel_rules.h"

#include <fmt/format.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "compiler/cel/cel.h"
#include "compiler/validate/json_util.h"

namespace flowc::validate {
namespace {

// Rules repeat across kinds and documents (every pod template carries the same ones): each is
// compiled once per run. The command's threads share the cache; the lock also keeps ANTLR's
// shared DFA cache (runtime 4.9) to one parse at a time. A compiled rule is never changed
// again, and an unordered_map's elements stay where they are when it grows.
const cel::Compiled& CompileOnce(const std::string& rule) {
  static auto* mutex = new std::mutex();
  static auto* cache = new std::unordered_map<std::string, cel::Compiled>();
  std::lock_guard<std::mutex> lock(*mutex);
  auto it = cache->find(rule);
  if (it == cache->end()) it = cache->emplace(rule, cel::Compile(rule)).first;
  return it->second;
}

// fieldPath: ".spec.foo", "spec.foo[0]" or "['key']", relative to the node.
Path FieldPath(const Path& base, const std::string& field_path) {
  Path out = base;
  std::string text = field_path;
  // JSONPath's ['key'] form reads as our ["key"].
  for (size_t i = 0; (i = text.find("['", i)) != std::string::npos;) {
    size_t end = text.find("']", i + 2);
    if (end == std::string::npos) break;
    text =
        text.substr(0, i) + "[\"" + text.substr(i + 2, end - i - 2) + "\"]" + text.substr(end + 2);
    ++i;
  }
  if (!text.empty() && text[0] == '.') text.erase(0, 1);
  if (std::optional<Path> rel = ParsePath(text)) out.insert(out.end(), rel->begin(), rel->end());
  return out;
}

// How the API server shows the value a rule failed on (apiextensions-apiserver
// pkg/apiserver/schema/cel/validation.go, fieldErrorForReason): "object" for a mapping, "array"
// for a list, the value itself otherwise.
std::string Shown(const nlohmann::json& value) {
  if (value.is_object()) return "\"object\"";
  if (value.is_array()) return "\"array\"";
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

// Where a rule without a fieldPath points: the API server reports it at the rule's node, but a
// rule that reads one field only (`self.metadata.name.matches(...)`, `has(self.x) && ...`) is
// about that field, and its line is where a reader looks. The field is the one chain of
// selections from `self` the rule spells (the conformance kit makes the same choice); with
// several, or `self` alone, the node itself.
std::optional<Path> OnlySelfChain(const std::string& rule) {
  std::optional<std::string> chain;
  auto ident = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  char quote = 0;
  for (size_t i = 0; i < rule.size(); ++i) {
    char c = rule[i];
    if (quote != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      continue;
    }
    if (rule.compare(i, 4, "self") != 0 || (i > 0 && (ident(rule[i - 1]) || rule[i - 1] == '.')) ||
        (i + 4 < rule.size() && ident(rule[i + 4]))) {
      continue;
    }
    size_t j = i + 4;
    std::string text;
    while (j < rule.size() && rule[j] == '.') {
      size_t k = j + 1;
      while (k < rule.size() && ident(rule[k])) ++k;
      if (k == j + 1 || (k < rule.size() && rule[k] == '(')) break;  // a method call ends it
      text += rule.substr(j, k - j);
      j = k;
    }
    if (chain && *chain != text) return std::nullopt;
    chain = text;
    i = j - 1;
  }
  if (!chain || chain->empty()) return std::nullopt;
  return ParsePath(chain->substr(1));
}

}  // namespace

void EvaluateRules(const nlohmann::json& rules, const nlohmann::json& schema,
                   const nlohmann::json& value, const Path& path, const Report& report) {
  if (!rules.is_array()) return;
  // A rule of an object node sees an object; a value of the wrong type is the schema's error.
  std::string type = Str(schema, "type");
  if ((type == "object" && !value.is_object()) || (type == "array" && !value.is_array())) return;
  for (const nlohmann::json& r : rules) {
    if (!r.is_object() || !r.contains("rule") || !r["rule"].is_string()) continue;
    const std::string& rule = r["rule"].get_ref<const std::string&>();
    Path where = path;
    if (r.contains("fieldPath") && r["fieldPath"].is_string()) {
      where = FieldPath(path, r["fieldPath"].get<std::string>());
    } else if (std::optional<Path> field = OnlySelfChain(rule)) {
      where.insert(where.end(), field->begin(), field->end());
    }
    const cel::Compiled& compiled = CompileOnce(rule);
    if (!compiled.program) {
      report(Finding{FormatPath(where),
                     fmt::format("the validation rule '{}' cannot be evaluated by flowc: {}", rule,
                                 compiled.error),
                     ""});
      continue;
    }
    if (cel::UsesOldSelf(*compiled.program)) continue;
    cel::Result result = cel::Evaluate(*compiled.program, value, nullptr);
    if (result.kind == cel::Result::kTrue) continue;
    if (result.kind == cel::Result::kError) {
      report(Finding{
          FormatPath(where),
          fmt::format("Invalid value: the validation rule '{}' failed: {}", rule, result.error),
          ""});
      continue;
    }
    std::string message;
    if (r.contains("message") && r["message"].is_string() &&
        !r["message"].get<std::string>().empty()) {
      message = r["message"].get<std::string>();
    } else if (r.contains("messageExpression") && r["messageExpression"].is_string()) {
      const cel::Compiled& m = CompileOnce(r["messageExpression"].get<std::string>());
      if (m.program) {
        cel::StringResult s = cel::EvaluateString(*m.program, value, nullptr);
        if (s.ok && !s.value.empty()) message = s.value;
      }
    }
    // The API server's default message when neither gives one.
    if (message.empty()) message = "failed rule: " + rule;
    report(Finding{FormatPath(where), fmt::format("Invalid value: {}: {}", Shown(value), message),
                   ""});
  }
}

}  // namespace flowc::validate
