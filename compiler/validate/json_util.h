// Reading a field of untrusted JSON (a user's CRD, a document) without throwing: nlohmann's
// value() throws when the field has another type, and a --schemas file may hold anything.
#ifndef FLOWC_VALIDATE_JSON_UTIL_H_
#define FLOWC_VALIDATE_JSON_UTIL_H_

#include <nlohmann/json.hpp>
#include <string>

namespace flowc::validate {

// The string at `key` of an object, or "" when it is missing or not a string.
inline std::string Str(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

// The boolean at `key` of an object, or `otherwise` when it is missing or not a boolean.
inline bool Bool(const nlohmann::json& object, const char* key, bool otherwise = false) {
  if (!object.is_object()) return otherwise;
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() ? it->get<bool>() : otherwise;
}

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_JSON_UTIL_H_
