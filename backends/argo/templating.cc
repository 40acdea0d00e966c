#include "backends/argo/templating.h"

#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>
#include <vector>

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

// --- expressions ------------------------------------------------------------
//
// Argo evaluates `{{=...}}` with expr-lang in an environment of its variables,
// its own toJson (encoding/json) and the sprig functions under `sprig`
// (util/expr/env/env.go GetFuncMap; sprig v3 functions.go). None of the
// expressions below holds `}}` (which would end the tag), `"` or `\`
// (manifests hold them inside YAML double-quoted strings), and each relies
// only on functions whose semantics do not depend on the expr-lang version:
// in particular no len(), which counts characters in the versions Argo 3.7
// and 4.1 ship while sprig.substr cuts bytes.

// Kubelet expands `$(VAR)` and reads `$$` as `$` in a container's command,
// args and env (kubernetes third_party/forked/golang/expansion/expand.go).
// Every `$` of a value is doubled: whatever text follows the value, nothing
// of it can start a reference. (sprig: replace(old, new, src).)
std::string KubeletEscaped(std::string_view value) {
  return fmt::format("sprig.replace('$', '$$', {})", value);
}

// A manifest's spelling of a string: toJson escapes it for a JSON string,
// which is also a valid YAML double-quoted string, and the regular
// expression drops the first and the last character, the quotes toJson
// adds (Go's regexp matches characters, and a JSON text has no line break).
std::string JsonBody(std::string_view value) {
  return fmt::format("sprig.regexReplaceAll('^.|.$', toJson({}), '')", value);
}

// `value` with each `{` written as `{{='{'}}`, an expression the next pass
// evaluates back to `{`, so that the value cannot open a tag in that pass.
// The replacement is built from pieces: its `{{` and `}}` cannot be written
// inside this tag.
std::string BracesHidden(std::string_view value) {
  return fmt::format("sprig.replace('{{', '{{' + '{{=' + sprig.squote('{{') + '}}' + '}}', {})",
                     value);
}

// The element, decoded: the `item` parameter holds the body of the
// element's JSON string literal (EncodeItem), which becomes the literal again
// in place of the x of toJson('x'), "x".
constexpr const char* kDecodedItem =
    "sprig.fromJson(sprig.replace('x', inputs.parameters.item, toJson('x')))";

std::string ParamVariable(std::string_view name) {
  // Brackets: a param may be named like an expr keyword (`in`, `not`).
  return fmt::format("workflow.parameters['{}']", name);
}

// The text a value reference yields in `context`, as one expression.
std::string ValueExpression(std::string value, const RefContext& context, std::string_view braces,
                            bool hide_braces) {
  value = KubeletEscaped(value);
  if (context.style == RefStyle::kManifest) value = JsonBody(value);
  if (!braces.empty()) value = fmt::format("'{}' + {}", braces, value);
  if (hide_braces) value = BracesHidden(value);
  return fmt::format("{{{{={}}}}}", value);
}

// --- the flow's text ----------------------------------------------------------

// A segment of a command argument, as the Argo target writes it.
struct Piece {
  Segment segment;
  // For a param or the item: the literal braces right before it, which go
  // into its expression so that no brace of the first pass runs into it.
  std::string braces;
};

bool IsValue(Segment::Kind kind) {
  return kind == Segment::Kind::kParam || kind == Segment::Kind::kItem;
}

std::vector<Piece> Pieces(const ir::Text& text) {
  std::vector<Piece> out;
  for (const Segment& segment : text.segments) {
    if (segment.kind == Segment::Kind::kLiteral && !out.empty() &&
        out.back().segment.kind == Segment::Kind::kLiteral) {
      out.back().segment.text += segment.text;  // a run of braces is never split
      continue;
    }
    Piece piece{segment, ""};
    if (IsValue(segment.kind) && !out.empty() &&
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
        view.Append("{{=item}}", FirstPassView::Origin::kPendingTag, i);
        break;
    }
  }
  return view;
}

// `values_pending`: the text is in a template that uses the element, where a
// param's hidden braces are expressions of the element's pass too.
// `pending_after`: such expressions follow this text in the template.
std::vector<std::string> UnsafeBraces(const FirstPassView& view, bool values_pending,
                                      bool pending_after) {
  std::vector<std::string> found;
  const std::string& text = view.text;
  using Origin = FirstPassView::Origin;
  auto pending = [&](size_t i) {
    return view.origin[i] == Origin::kPendingTag ||
           (values_pending && view.origin[i] == Origin::kValue &&
            view.pieces[view.piece[i]].segment.kind == Segment::Kind::kParam);
  };
  for (size_t p = text.find("{{"); p != std::string::npos; p = text.find("{{", p + 1)) {
    if (view.origin[p] != Origin::kLiteral || view.origin[p + 1] != Origin::kLiteral) continue;
    size_t close = text.find("}}", p + 2);
    size_t end = close == std::string::npos ? text.size() : close + 2;
    std::string_view tag = std::string_view(text).substr(p + 2, end - p - 2);
    if (close != std::string::npos) tag.remove_suffix(2);
    bool unsafe = !tag.empty() && tag.front() == '=';
    if (close == std::string::npos) {
      // The `{{` runs on to a `}}` later in the template, past an
      // expression of the element's pass.
      bool before_pending = pending_after;
      for (size_t i = p; i < end; ++i) before_pending |= pending(i);
      unsafe |= before_pending;
    } else {
      // The tag would hold such an expression: Argo would not evaluate it
      // inside another tag.
      bool holds_pending = false;
      for (size_t i = p; i < end; ++i) holds_pending |= pending(i);
      unsafe |= holds_pending || IsArgoVariable(tag);
    }
    if (!unsafe) continue;
    found.push_back(view.FlowSpelling(p, end));
    p = end - 1;  // the rest of this tag is reported with it
  }
  return found;
}

}  // namespace

std::string ParamRef(std::string_view name, const RefContext& context, std::string_view braces) {
  return ValueExpression(ParamVariable(name), context, braces, /*hide_braces=*/context.uses_item);
}

std::string ItemRef(const RefContext& context, std::string_view braces) {
  // Decoded in the pass that resolves the inputs; no pass of the flow's own
  // follows that one (see the header).
  return ValueExpression(kDecodedItem, context, braces, /*hide_braces=*/false);
}

std::string RunIdRef(bool in_part) {
  if (in_part) return fmt::format("{{{{workflow.parameters.{}}}}}", kRunIdParameter);
  return "{{workflow.name}}";
}

std::string ExpandedItem() { return "{{item}}"; }

std::string ItemInput() { return fmt::format("{{{{inputs.parameters.{}}}}}", kItemParameter); }

std::string EncodeItem(std::string_view text) {
  // nlohmann escapes `"`, `\` and the control characters; DEL too, here,
  // because Argo's simple tags write a value with Go's strconv.Quote, which
  // spells DEL `\x7f`, which is not JSON.
  std::string literal = nlohmann::json(std::string(text))
                            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  for (char c : std::string_view(literal).substr(1, literal.size() - 2)) {
    switch (c) {
      case '{':
        out += "\\u007b";
        break;
      case '}':
        out += "\\u007d";
        break;
      case '\x7f':
        out += "\\u007f";
        break;
      default:
        out += c;
        break;
    }
  }
  return out;
}

std::string ItemsOfParam(std::string_view name) {
  // The expression may not hold `}}`, which would end the tag; a `"` is
  // written \x22. Here only a backslash is written: this is a task's plain
  // YAML string, whose JSON Argo unquotes before expr-lang unescapes it.
  //
  // sprig.fromJson decodes every number as a float64, and Go's encoding/json
  // writes one back in the fewest digits (`1e3` and `1.0` as `1000` and `1`,
  // an integer past 2^53 rounded), while Argo's own withParam keeps each
  // element's JSON text (wfv1.Item holds json.RawMessage; item.go). So every
  // JSON string and number of the param's text is first written as a string
  // marked by its first and last characters, which decode to U+0002 ahead
  // and U+0000 behind for a string, U+0002 U+0000 ahead for a number's text
  // (Go's regexp finds each string before the numbers inside it):
  constexpr const char* kMarkedHead =
      R"(sprig.regexReplaceAll('\x22((?:[^\x22\\\\]|\\\\.)*)\x22|(-?[0-9][-+.0-9eE]*)', )";
  constexpr const char* kMarkedTail = R"(, '\x22\\u0002$1\\u0000$2\x22'))";
  // A string element ends in U+0000 (a number's text in a digit): unmarked,
  // it is the text `{{item}}` stands for.
  constexpr const char* kString = R"(sprig.kindIs('string', #) && sprig.hasSuffix('\x00', #) ? )"
                                  R"(sprig.trimPrefix('\x02', sprig.trimSuffix('\x00', #)))";
  // Any other element as JSON: sprig.toRawJson (encoding/json without its
  // HTML escapes; keys sorted, as nlohmann's std::map sorts them, a U+0000
  // ending a key keeping a shorter key first) with each marked number
  // written back as its text and each marked string as a JSON string; then
  // U+2028 and U+2029, which encoding/json always escapes and the IR does
  // not, as themselves: each `\\` is set aside as U+0003 first (none is left
  // in JSON text), so that the escape of a backslash followed by `u2028` is
  // not read as one.
  constexpr const char* kJson =
      R"(sprig.replace('\x03', '\\\\', sprig.replace('\\u2029', '\u2029', )"
      R"(sprig.replace('\\u2028', '\u2028', sprig.replace('\\\\', '\x03', )"
      R"(sprig.regexReplaceAll('\x22\\\\u0002((?:[^\x22\\\\]|\\\\.)*)\\\\u0000\x22', )"
      R"(sprig.regexReplaceAll('\x22\\\\u0002\\\\u0000(-?[0-9][-+.0-9eE]*)\x22', )"
      R"(sprig.toRawJson(#), '$1'), '\x22$1\x22'))))))";
  // Each text then encoded as EncodeItem does; `#` is the element in
  // expr-lang's map().
  constexpr const char* kEncodedHead =
      R"(sprig.replace('\x7f', '\\u007f', sprig.replace('}', '\\u007d', )"
      R"(sprig.replace('{', '\\u007b', sprig.regexReplaceAll('^.|.$', toJson()";
  constexpr const char* kEncodedTail = "), ''))))";
  return std::string("{{=toJson(map(sprig.fromJson(") + kMarkedHead + ParamVariable(name) +
         kMarkedTail + "), " + kEncodedHead + kString + " : " + kJson + kEncodedTail + "))}}";
}

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

std::string TranslateText(const ir::Text& text, const RefContext& context) {
  std::vector<Piece> pieces = Pieces(text);
  std::string out;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const Piece& piece = pieces[i];
    switch (piece.segment.kind) {
      case Segment::Kind::kGang:  // never in the IR: lowered to literal `$(FLOWC_...)`
      case Segment::Kind::kLiteral:
        out += EscapeLiteral(piece.segment.text, /*tag_follows=*/i + 1 < pieces.size());
        break;
      case Segment::Kind::kParam:
        out += ParamRef(piece.segment.text, context, piece.braces);
        break;
      case Segment::Kind::kItem:
        out += ItemRef(context, piece.braces);
        break;
      case Segment::Kind::kRunId:
        out += RunIdRef(context.in_part);
        break;
    }
  }
  return out;
}

std::vector<std::string> LiteralsArgoWouldRead(const ir::Text& text, const RefContext& context,
                                               bool pending_after) {
  return UnsafeBraces(ViewOf(Pieces(text)), context.uses_item, pending_after);
}

bool HasPendingReference(const ir::Text& text, const RefContext& context) {
  if (!context.uses_item) return false;
  for (const Segment& segment : text.segments) {
    if (IsValue(segment.kind)) return true;
  }
  return false;
}

std::vector<std::string> LiteralsArgoWouldRead(std::string_view literal, bool pending_after) {
  if (literal.find("{{") == std::string_view::npos) return {};
  return UnsafeBraces(
      ViewOf({Piece{Segment{Segment::Kind::kLiteral, std::string(literal), 0}, ""}}),
      /*values_pending=*/false, pending_after);
}

}  // namespace flowc::backends::argo
