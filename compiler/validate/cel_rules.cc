#include "compiler/validate/json_util.h"
#include "compiler/validate/cel_rules.h"

#include <memory>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#ifdef FLOWC_VALIDATE_HAVE_CEL
#include "compiler/cel/cel.h"
#endif

namespace flowc::validate {

#ifndef FLOWC_VALIDATE_HAVE_CEL
// A build without compiler/cel: every rule is reported as one flowc cannot evaluate, never
// passed in silence.
namespace cel {
struct Program {};
struct Compiled {
  std::unique_ptr<Program> program;
  std::string error;
};
inline Compiled Compile(std::string_view) { return {nullptr, "this flowc has no CEL evaluator"}; }
struct Result {
  enum Kind { kTrue, kFalse, kError } kind;
  std::string error;
};
inline Result Evaluate(const Program&, const nlohmann::json&, const nlohmann::json*) {
  return {Result::kError, "no CEL evaluator"};
}
inline bool UsesOldSelf(const Program&) { return false; }
struct StringResult {
  bool ok = false;
  std::string value, error;
};
inline StringResult EvaluateString(const Program&, const nlohmann::json&, const nlohmann::json*) {
  return {};
}
}  // namespace cel
#endif

namespace {

// Rules repeat across kinds and documents (every pod template carries the same ones): each is
// compiled once per run.
const cel::Compiled& CompileOnce(const std::string& rule) {
  static auto* cache = new std::unordered_map<std::string, cel::Compiled>();
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
    text = text.substr(0, i) + "[\"" + text.substr(i + 2, end - i - 2) + "\"]" + text.substr(end + 2);
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
      report(Finding{FormatPath(where),
                     fmt::format("Invalid value: the validation rule '{}' failed: {}", rule,
                                 result.error),
                     ""});
      continue;
    }
    std::string message;
    if (r.contains("message") && r["message"].is_string() && !r["message"].get<std::string>().empty()) {
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
    report(Finding{FormatPath(where), fmt::format("Invalid value: {}: {}", Shown(value), message), ""});
  }
}

}  // namespace flowc::validate
