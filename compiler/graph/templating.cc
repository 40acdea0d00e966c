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

std::string Text::ToFlowString() const {
  std::string out;
  for (const Segment& s : segments) {
    switch (s.kind) {
      case Segment::Kind::kLiteral: out += s.text; break;
      case Segment::Kind::kParam: out += "{{" + s.text + "}}"; break;
      case Segment::Kind::kItem: out += "{{item}}"; break;
      case Segment::Kind::kRunId: out += "{{run_id}}"; break;
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
    Segment::Kind kind = name == "item"     ? Segment::Kind::kItem
                         : name == "run_id" ? Segment::Kind::kRunId
                                            : Segment::Kind::kParam;
    out.segments.push_back(
        Segment{kind, kind == Segment::Kind::kParam ? std::string(name) : std::string(), i, length});
    literal_start = i + length;
    i = text.find("{{", literal_start);
  }
  flush(text.size());
  return out;
}

}  // namespace flowc::graph
