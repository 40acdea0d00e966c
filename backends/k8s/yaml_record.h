// Block maps that recur across steps (a Job's template, the same pod in every block of a flow),
// written by yaml-cpp once and copied afterwards.
//
// A YamlRecord holds the calls a renderer makes on a YAML::Emitter (manipulators, numbers,
// BlockScalar, EmitString), with each string as the target's policy made it. EmitRecordedMap
// makes those calls on the emitter the first time a record comes at an indentation, keeps the
// text yaml-cpp wrote for the map's content, and for the same record at the same indentation
// writes that text instead: yaml-cpp's output for a block map's content depends only on the
// calls and on the column where its first key starts (yaml_record.cc RecordedMaps says why).
// A record may hold units, block maps of their own (a toleration, a container's resources):
// where the whole record is new, each unit is written the same way.
#ifndef FLOWC_BACKENDS_K8S_YAML_RECORD_H_
#define FLOWC_BACKENDS_K8S_YAML_RECORD_H_

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace flowc::backends::k8s {

class YamlRecord {
 public:
  // The encoding: an op byte, then a manipulator's byte, a bool's byte, an int64's 8 bytes, a
  // string's 4-byte length and bytes, or a unit's 4-byte length and encoded calls.
  enum Op : char { kManip, kInt, kBool, kBlock, kString, kUnit };

  YamlRecord& operator<<(YAML::EMITTER_MANIP manip);
  YamlRecord& operator<<(int64_t value);
  YamlRecord& operator<<(int value) { return *this << static_cast<int64_t>(value); }
  YamlRecord& operator<<(bool value);
  // BlockScalar(out, text) and EmitString(out, text), recorded.
  void Block(std::string_view text) { AddString(kBlock, text); }
  void String(std::string_view text) { AddString(kString, text); }
  // Around the calls of one block map that may recur on its own: OpenUnit returns what
  // CloseUnit takes.
  size_t OpenUnit();
  void CloseUnit(size_t unit);

  // Makes the recorded calls on `out`.
  void Replay(YAML::Emitter& out) const;
  // The calls, encoded: what two records share exactly when they make the same calls.
  const std::string& bytes() const { return bytes_; }

 private:
  void AddString(Op op, std::string_view text);
  std::string bytes_;
};

// The record's versions of yaml_scalar.h's helpers, for renderers written for both.
void Key(YamlRecord& out, std::string_view key);
void ValueScalar(YamlRecord& out, std::string_view value);
void EmitString(YamlRecord& out, std::string_view value);
void StringField(YamlRecord& out, std::string_view key, std::string_view value);

// Writes into `out`, a block collection, what record.Replay(out) would write: `record` is one
// block map (BeginMap, a key, ..., EndMap). The first time the record comes at this
// indentation yaml-cpp writes it and its text is kept (up to a bound on the memory kept);
// afterwards the text is written as it is.
void EmitRecordedMap(YAML::Emitter& out, const YamlRecord& record);

}  // namespace flowc::backends::k8s

#endif  // FLOWC_BACKENDS_K8S_YAML_RECORD_H_
