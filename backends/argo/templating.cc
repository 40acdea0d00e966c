#include "backends/argo/templating.h"

#include <array>
#include <vector>

#include <fmt/format.h>

namespace flowc::backends::argo {
namespace {

using graph::Segment;

// The roots of the variables Argo resolves in a template or a pod
// (docs/variables.md; workflow/common/common.go): a literal `{{` followed by
// one of these would be substituted by a later pass.
constexpr std::array<std::string_view, 11> kArgoRoots = {
    "item", "inputs", "outputs", "workflow", "steps",       "tasks",
    "pod",  "node",   "retries", "lastRetry", "cronworkflow"};

bool IsArgoVariable(std::string_view tag) {
  // Argo looks the tag up trimmed; a nested `{{` makes it look up the part
  // after the last one (simple_template.go).
  size_t nested = tag.rfind("{{");
  if (nested != std::string_view::npos) tag.remove_prefix(nested + 2);
  while (!tag.empty() && (tag.front() == ' ' || tag.front() == '\t')) tag.remove_prefix(1);
  std::string_view root = tag.substr(0, tag.find_first_of(".[ \t}"));
  for (std::string_view known : kArgoRoots) {
    if (root == known) return true;
  }
  return false;
}

// Merges adjacent literal segments, so that a run of braces is never split.
std::vector<Segment> Normalize(const ir::Text& text) {
  std::vector<Segment> out;
  for (const Segment& segment : text.segments) {
    if (segment.kind == Segment::Kind::kLiteral && !out.empty() &&
        out.back().kind == Segment::Kind::kLiteral) {
      out.back().text += segment.text;
    } else {
      out.push_back(segment);
    }
  }
  return out;
}

// What a string looks like after Argo's first pass, which resolves the
// params and the run id but not yet `inputs.parameters.item`.
struct FirstPassView {
  enum class Origin { kLiteral, kValue, kPendingTag };
  std::string text;
  std::vector<Origin> origin;          // per character
  std::vector<size_t> segment;         // per character: index into segments
  std::vector<Segment> segments;

  void Append(std::string_view piece, Origin from, size_t index) {
    text += piece;
    origin.insert(origin.end(), piece.size(), from);
    segment.insert(segment.end(), piece.size(), index);
  }

  // The flow's own spelling of text[begin, end).
  std::string FlowSpelling(size_t begin, size_t end) const {
    std::string out;
    for (size_t i = begin; i < end; ++i) {
      if (origin[i] == Origin::kLiteral) {
        out += text[i];
      } else if (i == begin || segment[i - 1] != segment[i]) {
        out += ir::Text{{segments[segment[i]]}}.ToFlowString();
      }
    }
    return out;
  }
};

FirstPassView ViewOf(std::vector<Segment> segments) {
  FirstPassView view;
  view.segments = std::move(segments);
  for (size_t i = 0; i < view.segments.size(); ++i) {
    const Segment& segment = view.segments[i];
    switch (segment.kind) {
      case Segment::Kind::kLiteral:
        view.Append(segment.text, FirstPassView::Origin::kLiteral, i);
        break;
      case Segment::Kind::kParam:
      case Segment::Kind::kRunId:
        // A value: what it holds is the run's business, not the flow's.
        view.Append("\x01", FirstPassView::Origin::kValue, i);
        break;
      case Segment::Kind::kItem:
        view.Append(ItemRef(RefStyle::kContainer), FirstPassView::Origin::kPendingTag, i);
        break;
    }
  }
  return view;
}

std::vector<std::string> UnsafeBraces(const FirstPassView& view) {
  std::vector<std::string> found;
  const std::string& text = view.text;
  for (size_t p = text.find("{{"); p != std::string::npos; p = text.find("{{", p + 1)) {
    if (view.origin[p] != FirstPassView::Origin::kLiteral) continue;
    size_t close = text.find("}}", p + 2);
    size_t end = close == std::string::npos ? text.size() : close + 2;
    std::string_view tag = std::string_view(text).substr(
        p + 2, close == std::string::npos ? std::string_view::npos : close - p - 2);
    bool unsafe = !tag.empty() && tag.front() == '=';
    for (size_t i = p; i < end && !unsafe; ++i) {
      unsafe = view.origin[i] == FirstPassView::Origin::kPendingTag;
    }
    if (!unsafe && close != std::string::npos) unsafe = IsArgoVariable(tag);
    if (!unsafe) continue;
    found.push_back(view.FlowSpelling(p, end));
    // The rest of this tag is reported with it.
    p = end - 1;
  }
  return found;
}

}  // namespace

std::string ParamRef(std::string_view name, RefStyle style) {
  switch (style) {
    case RefStyle::kContainer:
      return fmt::format("{{{{workflow.parameters.{}}}}}", name);
    case RefStyle::kManifest: {
      // toJson escapes the value for a JSON string, which is also a valid
      // YAML double-quoted string; substr drops the quotes toJson adds.
      // No `"` or `\` here: this text itself sits in a double-quoted scalar.
      std::string value = fmt::format("toJson(workflow.parameters['{}'])", name);
      return fmt::format("{{{{=sprig.substr(1, len({0}) - 1, {0})}}}}", value);
    }
  }
  return {};
}

std::string ItemRef(RefStyle style) {
  switch (style) {
    case RefStyle::kContainer:
      return fmt::format("{{{{inputs.parameters.{}}}}}", kItemParameter);
    case RefStyle::kManifest: {
      std::string value = fmt::format("toJson(inputs.parameters.{})", kItemParameter);
      return fmt::format("{{{{=sprig.substr(1, len({0}) - 1, {0})}}}}", value);
    }
  }
  return {};
}

std::string RunIdRef() { return "{{workflow.name}}"; }

std::string EscapeLiteral(std::string_view text, bool tag_follows) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    size_t brace = text.find('{', i);
    if (brace == std::string_view::npos) brace = text.size();
    out.append(text.substr(i, brace - i));
    if (brace == text.size()) break;
    size_t run_end = text.find_first_not_of('{', brace);
    if (run_end == std::string_view::npos) run_end = text.size();
    std::string_view run = text.substr(brace, run_end - brace);
    // Two braces open a tag; one brace just before a tag would make it three.
    if (run.size() >= 2 || (run_end == text.size() && tag_follows)) {
      // The expression yields the braces; single quotes, because Argo
      // mangles double quotes inside expressions (argo-workflows#6260).
      out += "{{='";
      out += run;
      out += "'}}";
    } else {
      out += run;
    }
    i = run_end;
  }
  return out;
}

std::string TranslateText(const ir::Text& text, RefStyle style) {
  std::vector<Segment> segments = Normalize(text);
  std::string out;
  for (size_t i = 0; i < segments.size(); ++i) {
    const Segment& segment = segments[i];
    switch (segment.kind) {
      case Segment::Kind::kLiteral:
        out += EscapeLiteral(segment.text, /*tag_follows=*/i + 1 < segments.size());
        break;
      case Segment::Kind::kParam: out += ParamRef(segment.text, style); break;
      case Segment::Kind::kItem: out += ItemRef(style); break;
      case Segment::Kind::kRunId: out += RunIdRef(); break;
    }
  }
  return out;
}

std::vector<std::string> LiteralsArgoWouldRead(const ir::Text& text) {
  return UnsafeBraces(ViewOf(Normalize(text)));
}

std::vector<std::string> LiteralsArgoWouldRead(std::string_view literal) {
  if (literal.find("{{") == std::string_view::npos) return {};
  return UnsafeBraces(ViewOf({Segment{Segment::Kind::kLiteral, std::string(literal), 0}}));
}

}  // namespace flowc::backends::argo
