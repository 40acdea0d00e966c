// The JSON of one pod and of one object beside the pods, as the IR's document holds them
// (ir_json.h): the half of ir_json.cc that knows the shapes of Kubernetes' objects. The document's
// writer (ir_json.cc) calls PodJson and ObjectJson with its SharedParts, which turns a pod's
// shared parts into stand-ins (json_parts.h); PodToJson and ObjectToJson call them without.
// The builders below are the ones both files build members with. Private to compiler/ir.
#ifndef FLOWC_IR_POD_JSON_H_
#define FLOWC_IR_POD_JSON_H_

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "compiler/ir/ir.h"
#include "compiler/ir/json_parts.h"

namespace flowc::ir::pod_json {

using Json = nlohmann::ordered_json;

// A pod's and an object's JSON; `parts`, when writing text, takes the pod's shared parts, and
// is null for whole trees.
Json PodJson(const Pod& pod, SharedParts* parts);
Json ObjectJson(const Object& object, SharedParts* parts);

// Members are added in order, each key once (they are flowc's own words), with room made
// beforehand: ordered_json's operator[] searches the members so far, and each growth of its
// vector copies every key (its pairs hold `const std::string`). A step's JSON is about 60
// nodes; building them was half of `--target ir`'s own instructions.
inline Json JsonObject(size_t members) {
  Json out = Json::object();
  out.get_ref<Json::object_t&>().reserve(members);
  return out;
}

inline void Add(Json& object, const char* key, Json value) {
  object.get_ref<Json::object_t&>().emplace_back(key, std::move(value));
}

inline Json JsonArray(size_t items) {
  Json out = Json::array();
  out.get_ref<Json::array_t&>().reserve(items);
  return out;
}

inline Json Map(const KeyValues& pairs) {
  Json out = JsonObject(pairs.size());
  for (const auto& [key, value] : pairs) out[key] = value;  // a written key may repeat
  return out;
}

inline void SetIf(Json& out, const char* key, const std::string& value) {
  if (!value.empty()) Add(out, key, value);
}

inline void SetIf(Json& out, const char* key, const KeyValues& pairs) {
  if (!pairs.empty()) Add(out, key, Map(pairs));
}

// {"name": value}
inline Json Named(const std::string& name) {
  Json out = JsonObject(1);
  Add(out, "name", name);
  return out;
}

}  // namespace flowc::ir::pod_json

#endif  // FLOWC_IR_POD_JSON_H_
