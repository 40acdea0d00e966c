#include "compiler/graph/templating.h"

namespace flowc::graph {
namespace {

bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }

// If a reference starts at text[i], returns its length and sets `name`.
size_t MatchReference(std::string_view text, size_t i, std::string_view& name) {
  size_t j = i + 2;
  while (j < text.size() && text[j] == ' ') ++j;
  size_t begin = j;
  if (j >= text.size() || !IsIdentStart(text[j])) return 0;
  while (j < text.size() && IsIdentChar(text[j])) ++j;
  name = text.substr(begin, j - begin);
  while (j < text.size() && text[j] == ' ') ++j;
  if (text.substr(j, 2) != "}}") return 0;
  return j + 2 - i;
}

}  // namespace

bool Text::has_references() const {
  for (const Segment& s : segments) {
    if (s.kind != Segment::Kind::kLiteral) return true;
  }
  return false;
}

bool Text::refers(Segment::Kind kind) const {
  for (const Segment& s : segments) {
    if (s.kind == kind) return true;
  }
  return false;
}

std::string Text::ToFlowString() const {
  std::string out;
  for (const Segment& s : segments) {
    switch (s.kind) {
      case Segment::Kind::kLiteral: out += s.text; break;
      case Segment::Kind::kParam: out += "{{" + s.text + "}}"; break;
      case Segment::Kind::kItem: out += "{{item}}"; break;
      case Segment::Kind::kRunId: out += "{{run_id}}"; break;
      case Segment::Kind::kGang: out += "{{" + s.text + "}}"; break;
    }
  }
  return out;
}

Text SplitReferences(std::string_view text) {
  Text out;
  size_t literal_start = 0;
  auto flush = [&](size_t end) {
    if (end > literal_start) {
      out.segments.push_back(Segment{Segment::Kind::kLiteral,
                                     std::string(text.substr(literal_start, end - literal_start)),
                                     literal_start, end - literal_start});
    }
  };
  size_t i = text.find("{{");
  while (i != std::string_view::npos) {
    std::string_view name;
    size_t length = MatchReference(text, i, name);
    if (length == 0) {
      i = text.find("{{", i + 1);
      continue;
    }
    flush(i);
    Segment::Kind kind = name == "item"                ? Segment::Kind::kItem
                         : name == "run_id"            ? Segment::Kind::kRunId
                         : IsGangReferenceName(name)   ? Segment::Kind::kGang
                                                       : Segment::Kind::kParam;
    bool named = kind == Segment::Kind::kParam || kind == Segment::Kind::kGang;
    out.segments.push_back(Segment{kind, named ? std::string(name) : std::string(), i, length});
    literal_start = i + length;
    i = text.find("{{", literal_start);
  }
  flush(text.size());
  return out;
}

Text SplitGangReferences(std::string_view text) {
  Text out;
  for (Segment& s : SplitReferences(text).segments) {
    if (s.kind == Segment::Kind::kGang) {
      out.segments.push_back(std::move(s));
      continue;
    }
    // Anything else is the text as written, joined to the literal before it.
    std::string_view written = text.substr(s.offset, s.length);
    if (!out.segments.empty() && out.segments.back().kind == Segment::Kind::kLiteral) {
      out.segments.back().text += written;
      out.segments.back().length += s.length;
    } else {
      out.segments.push_back(
          Segment{Segment::Kind::kLiteral, std::string(written), s.offset, s.length});
    }
  }
  return out;
}

bool IsGangReferenceName(std::string_view name) {
  return name == "num_nodes" || name == "node_index" || name == "main_addr";
}

}  // namespace flowc::graph
