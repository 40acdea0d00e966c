#include "backends/k8s/yaml_record.h"

#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "backends/k8s/yaml_scalar.h"

namespace flowc::backends::k8s {
namespace {

template <typename T>
void AppendRaw(std::string& bytes, T value) {
  bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
}

template <typename T>
T ReadRaw(std::string_view bytes, size_t& at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  at += sizeof value;
  return value;
}

// The text of each block map's content that EmitMap has had yaml-cpp write, by
// indentation and record. Why the text can stand for the calls (yaml-cpp 0.7 emitter.cpp):
// - the map is opened by yaml-cpp (BeginMap). PrepareFirstKey then runs what the map's first
//   key runs first, PrepareNode(Scalar): in a block map without children, anchors, tags or
//   comments that writes only spaces up to the map's indentation (BlockMapPrepareSimpleKey,
//   and BlockMapPrepareLongKey before its '?'), so the key's own PrepareNode writes nothing
//   after it, and it changes no state;
// - from there, what yaml-cpp writes for the map depends on the calls, the map's indentation
//   (its children's add the global indent, never changed in flowc) and the string format
//   (Auto: an emitter under DoubleQuotedStrings is not served). The column after the first
//   key's indentation is the map's indentation when spaces were written or the column was 0;
//   otherwise yaml-cpp writes the map and nothing is kept;
// - the kept text is written as the map's first key (WriteWritten: PrepareNode, now writing
//   nothing, the text, StartedScalar), and EndMap closes the map: a block map with children
//   writes nothing at its end (EmitEndMap) and EndedGroup pops it, whatever its count; its
//   parent counted it when it opened. ostream_wrapper::write follows the text's lines and
//   columns, so what comes next finds the emitter as yaml-cpp left it.
class RecordedMaps {
 public:
  const std::string* Find(size_t indent, std::string_view record) const {
    if (indent >= texts_.size()) return nullptr;
    auto found = texts_[indent].find(record);
    return found == texts_[indent].end() ? nullptr : &found->second;
  }
  void Keep(size_t indent, std::string_view record, std::string_view text) {
    if (kept_ + record.size() + text.size() > kMaxKept) return;
    kept_ += record.size() + text.size();
    if (indent >= texts_.size()) texts_.resize(indent + 1);
    texts_[indent].emplace(records_.emplace_back(record), text);
  }

 private:
  // A flow whose sub-documents are all distinct keeps no more than this (a 100,000-step
  // JobSet is 120 MB of them).
  static constexpr size_t kMaxKept = 8 << 20;
  std::deque<std::string> records_;  // the keys of texts_, which point into it
  std::vector<std::unordered_map<std::string_view, std::string>> texts_;  // by indentation
  size_t kept_ = 0;
};

RecordedMaps& Recorded() {
  static RecordedMaps maps;
  return maps;
}

void EmitMap(YAML::Emitter& out, std::string_view record);

// Makes the calls `record` holds on `out`.
void ReplayCalls(YAML::Emitter& out, std::string_view record) {
  for (size_t at = 0; at < record.size();) {
    const auto op = static_cast<YamlRecord::Op>(record[at++]);
    switch (op) {
      case YamlRecord::kManip:
        out << static_cast<YAML::EMITTER_MANIP>(record[at++]);
        break;
      case YamlRecord::kInt:
        out << ReadRaw<int64_t>(record, at);
        break;
      case YamlRecord::kBool:
        out << (record[at++] != 0);
        break;
      case YamlRecord::kBlock:
      case YamlRecord::kString:
      case YamlRecord::kUnit: {
        const auto size = ReadRaw<uint32_t>(record, at);
        const std::string_view text = record.substr(at, size);
        at += size;
        if (op == YamlRecord::kBlock) {
          BlockScalar(out, text);
        } else if (op == YamlRecord::kString) {
          EmitString(out, text);
        } else {
          EmitMap(out, text);
        }
        break;
      }
    }
  }
}

void EmitMap(YAML::Emitter& out, std::string_view record) {
  // One map, whose first key is a string and whose last call is its EndMap (a unit's, or the
  // caller's, word).
  constexpr size_t kOpen = 2;  // kManip BeginMap
  size_t first = kOpen;
  if (record.size() > first + 1 && record[first] == YamlRecord::kManip &&
      record[first + 1] == static_cast<char>(YAML::Key)) {
    first += 2;
  }
  const bool keyed = record.size() > first + 4 && record[0] == YamlRecord::kManip &&
                     record[1] == static_cast<char>(YAML::BeginMap) &&
                     (record[first] == YamlRecord::kBlock || record[first] == YamlRecord::kString) &&
                     record[record.size() - 2] == YamlRecord::kManip &&
                     record.back() == static_cast<char>(YAML::EndMap);
  if (!keyed || !out.good() || internal::IsDoubleQuoted(out)) {
    ReplayCalls(out, record);
    return;
  }
  out << YAML::BeginMap;
  const size_t opened = internal::Column(out);
  const size_t indent = internal::PrepareFirstKey(out);
  const std::string_view content = record.substr(kOpen);
  const bool known_indent = opened == 0 || indent > opened;
  if (out.good() && known_indent) {
    if (const std::string* text = Recorded().Find(indent, record)) {
      internal::WriteWritten(out, *text);
      out << YAML::EndMap;
      return;
    }
  }
  const size_t start = out.size();
  ReplayCalls(out, content);  // to the map's EndMap, which writes nothing for a map with children
  const size_t size = out.size() - start;
  const std::string_view written = internal::WrittenBy(out);
  if (out.good() && known_indent && written.size() >= size) {
    Recorded().Keep(indent, record, written.substr(written.size() - size));
  }
}

}  // namespace

YamlRecord& YamlRecord::operator<<(YAML::EMITTER_MANIP manip) {
  bytes_ += kManip;
  bytes_ += static_cast<char>(manip);
  return *this;
}

YamlRecord& YamlRecord::operator<<(int64_t value) {
  bytes_ += kInt;
  AppendRaw(bytes_, value);
  return *this;
}

YamlRecord& YamlRecord::operator<<(bool value) {
  bytes_ += kBool;
  bytes_ += static_cast<char>(value);
  return *this;
}

void YamlRecord::AddString(Op op, std::string_view text) {
  bytes_ += op;
  AppendRaw(bytes_, static_cast<uint32_t>(text.size()));
  bytes_.append(text);
}

size_t YamlRecord::OpenUnit() {
  bytes_ += kUnit;
  const size_t unit = bytes_.size();
  AppendRaw(bytes_, uint32_t{0});
  return unit;
}

void YamlRecord::CloseUnit(size_t unit) {
  const auto size = static_cast<uint32_t>(bytes_.size() - unit - sizeof(uint32_t));
  std::memcpy(&bytes_[unit], &size, sizeof size);
}

void YamlRecord::Replay(YAML::Emitter& out) const { ReplayCalls(out, bytes_); }

void Key(YamlRecord& out, std::string_view key) {
  out << YAML::Key;
  out.Block(key);
}

void ValueScalar(YamlRecord& out, std::string_view value) {
  out << YAML::Value;
  out.Block(value);
}

void EmitString(YamlRecord& out, std::string_view value) { out.String(value); }

void StringField(YamlRecord& out, std::string_view key, std::string_view value) {
  Key(out, key);
  out << YAML::Value;
  out.String(value);
}

void EmitRecordedMap(YAML::Emitter& out, const YamlRecord& record) {
  EmitMap(out, record.bytes());
}

}  // namespace flowc::backends::k8s
