#include "compiler/validate/yaml_reader.h"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <map>
#include <optional>
#include <sstream>

#include "compiler/validate/yaml_scalar.h"

namespace flowc::validate {
namespace {

// An alias copies its anchor's value: a few anchors that each alias the one before ("billion
// laughs") would multiply into more nodes than memory holds. sigs.k8s.io/yaml stops such a
// document too (goyaml.v2 decode.go, allowedAliasRatio); no real manifest comes near this.
constexpr size_t kMaxAliasNodes = 1'000'000;

size_t CountNodes(const nlohmann::json& value) {
  size_t n = 1;
  if (value.is_structured()) {
    for (const nlohmann::json& child : value) n += CountNodes(child);
  }
  return n;
}

// The key text a scalar key becomes in JSON: sigs.k8s.io/yaml turns a boolean key into
// "true"/"false", a number into its decimal form, null into "null" (yaml.go,
// convertToJSONableObject).
std::string KeyText(const nlohmann::json& key, const std::string& raw) {
  if (key.is_string()) return key.get<std::string>();
  if (key.is_null()) return "null";
  if (key.is_boolean()) return key.get<bool>() ? "true" : "false";
  if (key.is_number_integer()) return key.dump();
  return raw;
}

struct Anchor {
  nlohmann::json value;
  uint32_t position = 0;
};

// Builds one document from yaml-cpp's events: a stack of open mappings and sequences, each
// completed value handed to its parent.
class DocumentBuilder : public YAML::EventHandler {
 public:
  DocumentBuilder(const diag::SourceFile& file, YamlDocument& doc) : file_(file), doc_(doc) {}

  void OnDocumentStart(const YAML::Mark& mark) override { doc_.start = Range(mark, 0); }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Complete(nullptr, NewPosition(mark), anchor, "", false);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      Complete(nullptr, NewPosition(mark), 0, "", false);
      return;
    }
    alias_nodes_ += CountNodes(it->second.value);
    if (alias_nodes_ > kMaxAliasNodes) {
      throw YAML::ParserException(mark, "aliases expand to more than a million nodes");
    }
    Complete(it->second.value, it->second.position, 0, "", false);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    nlohmann::json v;
    bool merge = false;
    if (tag == "?") {
      v = ResolvePlainScalar(value);
      merge = value == "<<";
    } else if (tag == "!" || tag == "tag:yaml.org,2002:str" || tag == "tag:yaml.org,2002:binary") {
      v = value;
    } else {
      // Another explicit tag (!!int, !!bool, a custom one): the value as its plain form reads.
      v = ResolvePlainScalar(value);
    }
    Complete(std::move(v), NewPosition(mark), anchor, value, merge);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Frame frame;
    frame.value = nlohmann::json::array();
    frame.position = NewPosition(mark);
    frame.anchor = anchor;
    frame.is_map = false;
    stack_.push_back(std::move(frame));
  }
  void OnSequenceEnd() override { Close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Frame frame;
    frame.value = nlohmann::json::object();
    frame.position = NewPosition(mark);
    frame.anchor = anchor;
    frame.is_map = true;
    stack_.push_back(std::move(frame));
  }
  void OnMapEnd() override {
    Frame& frame = stack_.back();
    // Merge keys (`<<: *base`): the merged mappings' members that the mapping does not set
    // itself, earlier mappings first (goyaml.v2 decode.go, merge).
    for (const auto& [value, position] : frame.merges) {
      const NodePosition merged = doc_.positions[position];
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (frame.value.contains(it.key())) continue;
        frame.value[it.key()] = it.value();
        for (const auto& [key, index] : merged.members) {
          if (key == it.key()) doc_.positions[frame.position].members.emplace_back(key, index);
        }
      }
    }
    Close();
  }

  bool done() const { return done_; }

 private:
  struct Frame {
    nlohmann::json value;
    uint32_t position = 0;
    YAML::anchor_t anchor = 0;
    bool is_map = false;
    // A mapping between a key and its value: the key read so far.
    bool have_key = false;
    std::string key;
    bool key_is_merge = false;
    diag::SourceRange key_range;
    std::vector<std::pair<nlohmann::json, uint32_t>> merges;
  };

  diag::SourceRange Range(const YAML::Mark& mark, uint32_t length) const {
    // yaml-cpp counts lines and columns from 0, columns in bytes.
    if (mark.line < 0) return {};
    std::string_view line = file_.Line(static_cast<uint32_t>(mark.line) + 1);
    if (line.data() == nullptr) return file_.RangeAt(static_cast<uint32_t>(file_.text().size()), 0);
    uint32_t offset = static_cast<uint32_t>(line.data() - file_.text().data()) +
                      static_cast<uint32_t>(std::max(mark.column, 0));
    return file_.RangeAt(offset, length);
  }

  uint32_t NewPosition(const YAML::Mark& mark) {
    // Every node takes at least a byte of the text, or an alias (counted above): more nodes
    // than that is yaml-cpp 0.7 reporting one node forever (a stray ',' after a block sequence,
    // then '...'), which must end as an error, not a hang.
    if (doc_.positions.size() > 2 * file_.text().size() + 16) {
      throw YAML::ParserException(mark, "the stream cannot be read past this point");
    }
    doc_.positions.push_back(NodePosition{Range(mark, 0), {}, {}, {}});
    return static_cast<uint32_t>(doc_.positions.size() - 1);
  }

  Path CurrentPath() const {
    Path path;
    for (const Frame& f : stack_) {
      if (f.is_map) {
        if (f.have_key) path.push_back(Key(f.key));
      } else {
        path.push_back(Index(f.value.size()));
      }
    }
    return path;
  }

  void Close() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (frame.is_map && frame.have_key) {
      // A key with no value event cannot happen in yaml-cpp's stream; keep the key as null.
      frame.value[frame.key] = nullptr;
    }
    Complete(std::move(frame.value), frame.position, frame.anchor, "", false);
  }

  void Complete(nlohmann::json value, uint32_t position, YAML::anchor_t anchor,
                const std::string& raw, bool merge) {
    if (anchor != 0) anchors_[anchor] = Anchor{value, position};
    if (stack_.empty()) {
      doc_.value = std::move(value);
      done_ = true;
      return;
    }
    Frame& parent = stack_.back();
    if (!parent.is_map) {
      doc_.positions[parent.position].items.push_back(position);
      parent.value.push_back(std::move(value));
      return;
    }
    if (!parent.have_key) {
      diag::SourceRange range = doc_.positions[position].node;
      if (value.is_structured()) {
        doc_.problems.push_back(
            YamlProblem{CurrentPath(), range, "a mapping key must be a scalar"});
        parent.key = "<key>";
      } else {
        parent.key = KeyText(value, raw);
      }
      parent.key_range = range;
      parent.key_range.length = static_cast<uint32_t>(raw.size());
      parent.key_is_merge = merge;
      parent.have_key = true;
      return;
    }
    parent.have_key = false;
    if (parent.key_is_merge) {
      if (value.is_object()) {
        parent.merges.emplace_back(std::move(value), position);
        return;
      }
      if (value.is_array()) {
        const NodePosition& list = doc_.positions[position];
        for (size_t i = 0; i < value.size() && i < list.items.size(); ++i) {
          if (value[i].is_object()) parent.merges.emplace_back(value[i], list.items[i]);
        }
        return;
      }
    }
    // The later of two equal keys wins, as in sigs.k8s.io/yaml, once reported.
    auto [member, added] = parent.value.emplace(parent.key, nullptr);
    if (!added) {
      Path path = CurrentPath();
      path.push_back(Key(parent.key));
      doc_.problems.push_back(
          YamlProblem{path, parent.key_range, fmt::format("duplicate field \"{}\"", parent.key)});
    }
    *member = std::move(value);
    doc_.positions[position].key = parent.key_range;
    doc_.positions[parent.position].members.emplace_back(std::move(parent.key), position);
  }

  const diag::SourceFile& file_;
  YamlDocument& doc_;
  std::vector<Frame> stack_;
  std::map<YAML::anchor_t, Anchor> anchors_;
  size_t alias_nodes_ = 0;
  bool done_ = false;
};

}  // namespace

diag::SourceRange YamlDocument::Locate(const Path& path) const {
  if (positions.empty()) return start;
  const NodePosition* at = &positions[0];
  diag::SourceRange best = at->node;
  for (const PathElement& e : path) {
    const NodePosition* next = nullptr;
    if (e.is_index) {
      if (e.index < at->items.size()) next = &positions[at->items[e.index]];
    } else {
      // The last member of that name: the one the JSON value holds.
      for (auto it = at->members.rbegin(); it != at->members.rend(); ++it) {
        if (it->first == e.key) {
          next = &positions[it->second];
          break;
        }
      }
    }
    if (next == nullptr) break;
    at = next;
    best = e.is_index || !at->key.valid() ? at->node : at->key;
  }
  return best;
}

YamlStream ReadYamlStream(const diag::SourceFile& file) {
  YamlStream stream;
  std::string_view text = file.text();
  if (std::optional<size_t> found = diag::FindInvalidUtf8(text)) {
    size_t bad = *found;
    stream.error.emplace(file.RangeAt(static_cast<uint32_t>(bad), 1),
                         fmt::format("invalid UTF-8 byte 0x{:02X}: a YAML stream is UTF-8 text",
                                     static_cast<unsigned char>(text[bad])));
    return stream;
  }
  std::istringstream in(file.text());
  YAML::Parser parser(in);
  int number = 0;
  diag::SourceRange last = file.RangeAt(0, 0);
  std::optional<diag::SourceRange> last_null;
  while (true) {
    YamlDocument doc;
    doc.number = number + 1;
    DocumentBuilder builder(file, doc);
    try {
      if (!parser.HandleNextDocument(builder)) break;
    } catch (const YAML::Exception& e) {
      diag::SourceRange range;
      if (e.mark.line >= 0) {
        std::string_view line = file.Line(static_cast<uint32_t>(e.mark.line) + 1);
        uint32_t offset = line.data() == nullptr
                              ? static_cast<uint32_t>(text.size())
                              : static_cast<uint32_t>(line.data() - text.data()) +
                                    static_cast<uint32_t>(std::max(e.mark.column, 0));
        range = file.RangeAt(offset, 0);
      }
      stream.error.emplace(range, "YAML syntax error: " + e.msg);
      break;
    } catch (const std::exception& e) {
      stream.error.emplace(diag::SourceRange{}, std::string("YAML error: ") + e.what());
      break;
    }
    ++number;
    if (!builder.done()) {
      // A document without a single node: yaml-cpp 0.7 reports one for some malformed streams
      // (a stray ',' after a block sequence, then '...') and would go on reporting it forever.
      diag::SourceRange at = doc.positions.empty() ? last : doc.positions.back().node;
      stream.error.emplace(at, "YAML syntax error: the stream cannot be read past this point");
      break;
    }
    if (doc.value.is_null()) {
      // yaml-cpp 0.7 reports a token it cannot place (a ',' outside a flow collection) as a
      // null document without consuming it, and again on every call: a second null document at
      // the same place is that loop (jbeder/yaml-cpp#1040, fixed upstream by PR #1319).
      diag::SourceRange at = doc.positions.empty() ? last : doc.positions.back().node;
      if (last_null && at.offset == last_null->offset && at.line == last_null->line) {
        stream.error.emplace(at, "YAML syntax error: unexpected character");
        break;
      }
      last_null = at;
      continue;
    }
    if (!doc.positions.empty()) last = doc.positions.back().node;
    stream.documents.push_back(std::move(doc));
  }
  return stream;
}

}  // namespace flowc::validate
