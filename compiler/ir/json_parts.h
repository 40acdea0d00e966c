// SharedParts: the parts of the IR's JSON that many steps share, written once.
//
// A pod's labels, tolerations, env, resources, volumes and mounts are Shared values
// (compiler/support/shared.h), interned, so the pods of a 10,000-step flow hold a handful of
// distinct ones. The IR's JSON wrote each out again for every step and every TrainingRuntime:
// nlohmann built its tree and escaped its strings each time. WriteFlowJson instead builds a
// step's tree with a stand-in for each such part, a binary node numbering it (the IR holds no
// binary data, so nothing else is one), and SharedParts::Dump writes the tree as nlohmann's
// dump(2) writes it, a stand-in as the text nlohmann wrote for its part the first time the part
// came at that indent. FlowToJson builds whole trees without stand-ins; ir_json_stream_test
// compares the two texts.
#ifndef FLOWC_IR_JSON_PARTS_H_
#define FLOWC_IR_JSON_PARTS_H_

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace flowc::ir {

// The glue nlohmann's pretty printer writes around the keys and values it writes
// (nlohmann/detail/output/serializer.hpp, dump: value_t::object and value_t::array), for the
// writers that hold one member or element at a time: WriteFlowJson's document, and
// SharedParts::Dump down to the stand-ins. An empty object or array is "{}" or "[]".
namespace pretty {

using Serializer = nlohmann::detail::serializer<nlohmann::ordered_json>;

// Before a member or element: a line break, after a comma unless it is the first, and
// `indent` spaces. (The bracket before the first is the caller's.)
void Item(std::string& text, bool first, unsigned indent);
// A member's key as the serializer writes a string, and ": ".
void Key(Serializer& serializer, std::string& text, const std::string& key);
// After the last member or element: a line break, `indent` spaces and `bracket`.
void Close(std::string& text, unsigned indent, char bracket);

}  // namespace pretty

class SharedParts {
 public:
  using Json = nlohmann::ordered_json;
  using Serializer = pretty::Serializer;

  // Which field a part is: one interned list can be two fields that are written differently
  // (a pod's envFrom secrets and its image pull secrets are both lists of names).
  enum class Field {
    kLabels,
    kAnnotations,
    kNodeSelector,
    kTolerations,
    kImagePullSecrets,
    kVolumes,
    kResourceClaims,
    kEnv,
    kEnvFrom,
    kResources,
    kVolumeMounts,
  };

  // The stand-in for `build()`, the JSON of field `field` of the interned value at `value`.
  // The value must stay where it is, unchanged, as long as this table (the flow's pods hold
  // theirs until the flow is freed).
  template <typename Build>
  Json StandIn(Field field, const void* value, const Build& build) {
    auto [at, fresh] = index_.try_emplace({value, field}, parts_.size());
    if (fresh) parts_.push_back(Part{build(), {}});
    return Json::binary({}, at->second);
  }

  // Appends `value` to `text` as serializer.dump(value, true, false, 2, indent) would write it
  // with every stand-in replaced by its part. `serializer` writes into `text`.
  void Dump(Serializer& serializer, std::string& text, const Json& value, unsigned indent);

 private:
  struct Part {
    Json value;
    std::vector<std::pair<unsigned, std::string>> texts;  // by indent, as written
  };
  std::map<std::pair<const void*, Field>, size_t> index_;
  std::vector<Part> parts_;
};

}  // namespace flowc::ir

#endif  // FLOWC_IR_JSON_PARTS_H_
