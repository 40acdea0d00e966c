#include "backends/argo/templating.h"

#include <array>
#include <vector>

#include <fmt/format.h>

namespace flowc::backends::argo {
namespace {

using graph::Segment;

// The roots of the variables Argo resolves in a container or resource
// template and in the pod made from it (docs/variables.md; workflow/common):
// a literal `{{` followed by one of these would be substituted by a later
// pass. (`item` is resolved only in the task that iterates, whose JSON holds
// no flow text.)
constexpr std::array<std::string_view, 10> kArgoRoots = {
    "inputs", "outputs", "workflow", "steps",     "tasks",
    "pod",    "node",    "retries",  "lastRetry", "cronworkflow"};

constexpr std::string_view kSpace = " \t\n\r\v\f";

bool IsArgoVariable(std::string_view tag) {
  // Argo looks the tag up trimmed; a nested `{{` makes it look up the part
  // after the last one (simple_template.go).
  size_t nested = tag.rfind("{{");
  if (nested != std::string_view::npos) tag.remove_prefix(nested + 2);
  size_t begin = tag.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return false;
  tag.remove_prefix(begin);
  std::string_view root = tag.substr(0, tag.find_first_of(".[}"));
  root = root.substr(0, root.find_first_of(kSpace));
  for (std::string_view known : kArgoRoots) {
    if (root == known) return true;
  }
  return false;
}

// A segment of a command argument, as the Argo target writes it.
struct Piece {
  Segment segment;
  // For an item reference: the literal braces right before it. Argo resolves
  // the item only in its second pass, so braces that the first pass yielded
  // would run into the item's tag; they are written with the item instead.
  std::string braces;
};

std::vector<Piece> Pieces(const ir::Text& text) {
  std::vector<Piece> out;
  for (const Segment& segment : text.segments) {
    if (segment.kind == Segment::Kind::kLiteral && !out.empty() &&
        out.back().segment.kind == Segment::Kind::kLiteral) {
      out.back().segment.text += segment.text;  // a run of braces is never split
      continue;
    }
    Piece piece{segment, ""};
    if (segment.kind == Segment::Kind::kItem && !out.empty() &&
        out.back().segment.kind == Segment::Kind::kLiteral) {
      std::string& literal = out.back().segment.text;
      size_t run = literal.find_last_not_of('{') + 1;  // npos + 1 == 0
      piece.braces = literal.substr(run);
      literal.erase(run);
      if (literal.empty()) out.pop_back();
    }
    out.push_back(std::move(piece));
  }
  return out;
}

// What a string looks like after Argo's first pass, which resolves the
// params and the run id but not yet `inputs.parameters.item`.
struct FirstPassView {
  enum class Origin { kLiteral, kValue, kPendingTag };
  std::string text;
  std::vector<Origin> origin;  // per character
  std::vector<size_t> piece;   // per character: index into pieces
  std::vector<Piece> pieces;

  void Append(std::string_view part, Origin from, size_t index) {
    text += part;
    origin.insert(origin.end(), part.size(), from);
    piece.insert(piece.end(), part.size(), index);
  }

  // The flow's own spelling of text[begin, end).
  std::string FlowSpelling(size_t begin, size_t end) const {
    std::string out;
    for (size_t i = begin; i < end; ++i) {
      if (origin[i] == Origin::kLiteral) {
        out += text[i];
      } else if (i == begin || piece[i - 1] != piece[i]) {
        const Piece& p = pieces[piece[i]];
        out += p.braces + ir::Text{{p.segment}}.ToFlowString();
      }
    }
    return out;
  }
};

FirstPassView ViewOf(std::vector<Piece> pieces) {
  FirstPassView view;
  view.pieces = std::move(pieces);
  for (size_t i = 0; i < view.pieces.size(); ++i) {
    const Piece& piece = view.pieces[i];
    switch (piece.segment.kind) {
      case Segment::Kind::kGang:  // never in the IR: lowered to literal `$(FLOWC_...)`
      case Segment::Kind::kLiteral:
        view.Append(piece.segment.text, FirstPassView::Origin::kLiteral, i);
        break;
      case Segment::Kind::kParam:
      case Segment::Kind::kRunId:
        // A value: what it holds is the run's business, not the flow's.
        view.Append("\x01", FirstPassView::Origin::kValue, i);
        break;
      case Segment::Kind::kItem:
        view.Append(piece.braces + ItemRef(RefStyle::kContainer),
                    FirstPassView::Origin::kPendingTag, i);
        break;
    }
  }
  return view;
}

std::vector<std::string> UnsafeBraces(const FirstPassView& view, RefStyle style,
                                      bool unterminated_unsafe) {
  std::vector<std::string> found;
  const std::string& text = view.text;
  using Origin = FirstPassView::Origin;
  for (size_t p = text.find("{{"); p != std::string::npos; p = text.find("{{", p + 1)) {
    if (view.origin[p] != Origin::kLiteral || view.origin[p + 1] != Origin::kLiteral) continue;
    size_t close = text.find("}}", p + 2);
    size_t end = close == std::string::npos ? text.size() : close + 2;
    std::string_view tag = std::string_view(text).substr(p + 2, end - p - 2);
    if (close != std::string::npos) tag.remove_suffix(2);
    bool unsafe = !tag.empty() && tag.front() == '=';
    if (close == std::string::npos) {
      unsafe |= unterminated_unsafe;
    } else {
      // The tag would hold an item's tag. Argo still resolves a simple one,
      // as the nested tag after the last `{{`, but not an expression.
      bool pending = false;
      bool expression = style == RefStyle::kManifest;
      for (size_t i = p; i < end; ++i) {
        if (view.origin[i] != Origin::kPendingTag) continue;
        pending = true;
        expression |= !view.pieces[view.piece[i]].braces.empty();
      }
      unsafe |= pending ? expression : IsArgoVariable(tag);
    }
    if (!unsafe) continue;
    found.push_back(view.FlowSpelling(p, end));
    p = end - 1;  // the rest of this tag is reported with it
  }
  return found;
}

// A manifest's spelling of `variable`'s value: toJson escapes it for a JSON
// string, which is also a valid YAML double-quoted string, and substr drops
// the quotes toJson adds. No `"` or `\` here: this text itself sits in a
// double-quoted scalar.
std::string ManifestValue(std::string_view variable) {
  return fmt::format("sprig.substr(1, len(toJson({0})) - 1, toJson({0}))", variable);
}

std::string ItemVariable() { return fmt::format("inputs.parameters.{}", kItemParameter); }

std::string ItemWithBraces(std::string_view braces, RefStyle style) {
  if (braces.empty()) return ItemRef(style);
  // One expression yields the braces and the value, in the pass that knows
  // the value.
  std::string value =
      style == RefStyle::kContainer ? ItemVariable() : ManifestValue(ItemVariable());
  return fmt::format("{{{{='{}' + {}}}}}", braces, value);
}

}  // namespace

std::string ParamRef(std::string_view name, RefStyle style) {
  switch (style) {
    case RefStyle::kContainer:
      return fmt::format("{{{{workflow.parameters.{}}}}}", name);
    case RefStyle::kManifest:
      // Brackets: a param may be named like an expr keyword (`in`, `not`).
      return fmt::format("{{{{={}}}}}",
                         ManifestValue(fmt::format("workflow.parameters['{}']", name)));
  }
  return {};
}

std::string ItemRef(RefStyle style) {
  switch (style) {
    case RefStyle::kContainer: return fmt::format("{{{{{}}}}}", ItemVariable());
    case RefStyle::kManifest: return fmt::format("{{{{={}}}}}", ManifestValue(ItemVariable()));
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
  std::vector<Piece> pieces = Pieces(text);
  std::string out;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const Piece& piece = pieces[i];
    switch (piece.segment.kind) {
      case Segment::Kind::kGang:  // never in the IR: lowered to literal `$(FLOWC_...)`
      case Segment::Kind::kLiteral:
        out += EscapeLiteral(piece.segment.text, /*tag_follows=*/i + 1 < pieces.size());
        break;
      case Segment::Kind::kParam: out += ParamRef(piece.segment.text, style); break;
      case Segment::Kind::kItem: out += ItemWithBraces(piece.braces, style); break;
      case Segment::Kind::kRunId: out += RunIdRef(); break;
    }
  }
  return out;
}

std::vector<std::string> LiteralsArgoWouldRead(const ir::Text& text, RefStyle style,
                                               bool unterminated_unsafe) {
  return UnsafeBraces(ViewOf(Pieces(text)), style, unterminated_unsafe);
}

std::vector<std::string> LiteralsArgoWouldRead(std::string_view literal,
                                               bool unterminated_unsafe) {
  if (literal.find("{{") == std::string_view::npos) return {};
  return UnsafeBraces(
      ViewOf({Piece{Segment{Segment::Kind::kLiteral, std::string(literal), 0}, ""}}),
      RefStyle::kContainer, unterminated_unsafe);
}

}  // namespace flowc::backends::argo
