#include "backends/airflow/python.h"

#include <fmt/format.h>

namespace flowc::backends::airflow {
namespace {

constexpr size_t kLineWidth = 100;

// Decodes the UTF-8 sequence at text[i]. Returns its length, or 0 if the
// byte there does not start a valid sequence.
size_t DecodeUtf8(std::string_view text, size_t i, char32_t& code_point) {
  unsigned char c = static_cast<unsigned char>(text[i]);
  size_t length = c < 0x80             ? 1
                  : (c & 0xE0) == 0xC0 ? 2
                  : (c & 0xF0) == 0xE0 ? 3
                  : (c & 0xF8) == 0xF0 ? 4
                                       : 0;
  if (length == 0 || i + length > text.size()) return 0;
  char32_t cp = length == 1 ? c : length == 2 ? (c & 0x1F) : length == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < length; ++k) {
    unsigned char next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (next & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
  static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  code_point = cp;
  return length;
}

// Characters that would make the file read differently from how it runs:
// invisible controls, line breaks other editors honour, and bidirectional
// overrides ("Trojan Source").
bool MustEscape(char32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C ||
         (cp >= 0x200B && cp <= 0x200F) || cp == 0x2028 || cp == 0x2029 ||
         (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2069) || cp == 0xFEFF;
}

template <typename String>
void AppendEscape(String& out, char32_t cp) {
  switch (cp) {
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      break;
  }
  if (cp <= 0xFF) {
    fmt::format_to(std::back_inserter(out), "\\x{:02x}", static_cast<unsigned>(cp));
  } else {
    fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(cp));
  }
}

bool IsParamAttributeSafe(std::string_view name) {
  // `params.x` looks up an attribute first: names of dict and ParamsDict
  // methods, and private names, must be subscripted instead.
  static constexpr std::string_view kMethods[] = {
      "clear", "copy",    "deserialize", "dump",       "fromkeys", "get",    "items",    "keys",
      "pop",   "popitem", "serialize",   "setdefault", "to_dict",  "update", "validate", "values"};
  if (name.empty() || name[0] == '_') return false;
  for (std::string_view method : kMethods) {
    if (name == method) return false;
  }
  return true;
}

const ir::Param* FindParam(const JinjaScope& scope, std::string_view name) {
  if (scope.params == nullptr) return nullptr;
  for (const ir::Param& param : *scope.params) {
    if (param.name == name) return &param;
  }
  return nullptr;
}

}  // namespace

std::string KubeletValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    out += c;
    if (c == '$') out += '$';
  }
  return out;
}

namespace {

std::string ParamExpression(const JinjaScope& scope, std::string_view name) {
  std::string access = IsParamAttributeSafe(name) ? fmt::format("params.{}", name)
                                                  : fmt::format("params['{}']", name);
  const ir::Param* param = FindParam(scope, name);
  // Airflow renders a value with str(): True, ['a'], 1000000000000000.0.
  // The IR and the other targets write compact JSON (true, ["a"], 1e+15);
  // Jinja's own tojson escapes ' and spaces out lists. So every param goes
  // through flowc_text (templates/airflow/flowc_text.py), a filter the DAG
  // registers, which also doubles each `$` for kubelet.
  return fmt::format("{{{{ {}{} }}}}", access, param != nullptr ? " | flowc_text" : "");
}

// Appends `text` to a template so that Jinja renders it unchanged. `last`:
// nothing follows in the template, so a final newline needs protecting; a
// final `{` needs it when a tag follows.
void AppendJinjaLiteral(std::string& out, std::string_view text, bool last) {
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    bool at_end = i + 1 == text.size();
    if (c == '{') {
      if (!at_end && (text[i + 1] == '{' || text[i + 1] == '%' || text[i + 1] == '#')) {
        fmt::format_to(std::back_inserter(out), "{{{{ '{{{}' }}}}", text[i + 1]);
        ++i;
      } else if (at_end && !last) {
        out += "{{ '{' }}";
      } else {
        out += c;
      }
    } else if (c == '\r') {
      out += "{{ '\\r' }}";
    } else if (c == '\n' && at_end && last) {
      out += "{{ '\\n' }}";
    } else {
      out += c;
    }
  }
}

void AppendSegment(std::string& out, const ir::Segment& segment, const JinjaScope& scope,
                   bool last) {
  switch (segment.kind) {
    case ir::Segment::Kind::kGang:  // never in the IR: lowered to literal `$(FLOWC_...)`
    case ir::Segment::Kind::kLiteral:
      AppendJinjaLiteral(out, segment.text, last);
      break;
    case ir::Segment::Kind::kParam:
      out += ParamExpression(scope, segment.text);
      break;
    case ir::Segment::Kind::kRunId:
      out += "{{ run_id }}";
      break;
    case ir::Segment::Kind::kItem:
      if (scope.item == JinjaScope::Item::kConstant) {
        AppendJinjaLiteral(out, KubeletValue(scope.item_value), last);
      } else {
        out += "{{ item }}";
      }
      break;
  }
}

// Printable ASCII that PythonString writes as it is, in a block also the newline: most text.
bool IsVerbatim(char c, bool block) {
  return (c >= 0x20 && c < 0x7F && c != '\\' && c != '"') || (block && c == '\n');
}

// The characters of PythonString between its quotes. A run of verbatim characters is
// appended at once: decoding and appending each alone was most of a DAG's escaping.
template <typename String>
void AppendStringBody(String& out, std::string_view text, bool block) {
  out.reserve(out.size() + text.size());
  for (size_t i = 0; i < text.size();) {
    size_t run = i;
    while (run < text.size() && IsVerbatim(text[run], block)) ++run;
    if (run > i) {
      out.append(text.data() + i, run - i);
      i = run;
      continue;
    }
    char32_t cp = 0;
    size_t length = DecodeUtf8(text, i, cp);
    if (length == 0) {
      fmt::format_to(std::back_inserter(out), "\\udc{:02x}",
                     static_cast<unsigned>(static_cast<unsigned char>(text[i])));
      ++i;
      continue;
    }
    if (cp == '\\') {
      out += "\\\\";
    } else if (cp == '"') {
      // In a block, only a quote that could start or end a closing """
      // needs escaping.
      bool next_is_quote = i + 1 < text.size() && text[i + 1] == '"';
      out += !block || next_is_quote || i + 1 == text.size() ? "\\\"" : "\"";
    } else if (cp == '\n' && block) {
      out += '\n';
    } else if (MustEscape(cp)) {
      AppendEscape(out, cp);
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
}

constexpr const char* kBlockOpen = "\"\"\"\\\n";
constexpr const char* kBlockClose = "\"\"\"";

// PythonString(text, style), appended to `out` (a std::string, or a PyExpr's own).
template <typename String>
void AppendPythonString(String& out, std::string_view text, StringStyle style) {
  bool block = style == StringStyle::kBlock;
  out += block ? kBlockOpen : "\"";
  AppendStringBody(out, text, block);
  out += block ? kBlockClose : "\"";
}

}  // namespace

std::string PythonString(std::string_view text, StringStyle style) {
  std::string out;
  AppendPythonString(out, text, style);
  return out;
}

std::string PythonBlockBody(std::string_view text) {
  std::string out;
  AppendStringBody(out, text, /*block=*/true);
  return out;
}

std::string PythonBlockString(const std::vector<std::string_view>& bodies) {
  std::string out = kBlockOpen;
  for (std::string_view body : bodies) out.append(body);
  out += kBlockClose;
  return out;
}

std::string JinjaLiteral(std::string_view text) {
  std::string out;
  AppendJinjaLiteral(out, text, /*last=*/true);
  return out;
}

std::string JinjaText(const ir::Text& text, const JinjaScope& scope) {
  std::string out;
  for (size_t i = 0; i < text.segments.size(); ++i) {
    AppendSegment(out, text.segments[i], scope, i + 1 == text.segments.size());
  }
  return out;
}

std::vector<std::optional<std::string>> JinjaParts(const ir::Text& text, const JinjaScope& scope) {
  std::vector<std::optional<std::string>> parts;
  std::string piece;
  const auto& segments = text.segments;
  for (size_t i = 0; i < segments.size(); ++i) {
    if (segments[i].kind == ir::Segment::Kind::kItem) {
      if (!piece.empty()) parts.emplace_back(std::move(piece));
      piece.clear();
      parts.emplace_back(std::nullopt);
      continue;
    }
    bool last = i + 1 == segments.size() || segments[i + 1].kind == ir::Segment::Kind::kItem;
    AppendSegment(piece, segments[i], scope, last);
  }
  if (!piece.empty()) parts.emplace_back(std::move(piece));
  return parts;
}

PyExpr PyExpr::Code(std::string_view code) {
  PyExpr e;
  e.kind_ = Kind::kCode;
  e.code_ = code;
  return e;
}

PyExpr PyExpr::Str(std::string_view text) {
  PyExpr e;  // PythonString(text), written where it is kept
  AppendPythonString(e.code_, text, StringStyle::kInline);
  return e;
}
PyExpr PyExpr::Int(int64_t value) { return Code(std::to_string(value)); }
PyExpr PyExpr::Bool(bool value) { return Code(value ? "True" : "False"); }
PyExpr PyExpr::None() { return Code("None"); }

PyExpr PyExpr::Call(std::string_view callee, Exprs args, Kwargs kwargs) {
  return Call(Code(callee), std::move(args), std::move(kwargs));
}

PyExpr PyExpr::Call(PyExpr callee, Exprs args, Kwargs kwargs) {
  PyExpr e;
  e.kind_ = Kind::kCall;
  e.callee_.push_back(std::move(callee));
  e.args_ = std::move(args);
  e.kwargs_ = std::move(kwargs);
  return e;
}

PyExpr PyExpr::Attr(PyExpr base, std::string_view name) {
  PyExpr e;
  e.kind_ = Kind::kAttr;
  e.callee_.push_back(std::move(base));
  e.code_ = name;
  return e;
}

PyExpr PyExpr::List(Exprs items) {
  PyExpr e;
  e.kind_ = Kind::kList;
  e.args_ = std::move(items);
  return e;
}

PyExpr PyExpr::Dict(Items items) {
  PyExpr e;
  e.kind_ = Kind::kDict;
  e.items_ = std::move(items);
  return e;
}

std::string_view PyExpr::Flat() const {
  if (!flat_) {
    std::string flat;
    flat.reserve(FlatSize());
    AppendFlat(flat);
    flat_.emplace(flat);
  }
  return *flat_;
}

size_t PyExpr::FlatSize() const {
  if (flat_size_) return *flat_size_;
  // Each separator ", " between elements; brackets and the callee around them.
  auto separators = [](size_t n) { return n == 0 ? 0 : 2 * (n - 1); };
  size_t size = 0;
  switch (kind_) {
    case Kind::kCode:
      size = code_.size();
      break;
    case Kind::kAttr:
      size = callee_.front().FlatSize() + 1 + code_.size();
      break;
    case Kind::kCall:
      size = callee_.front().FlatSize() + 2 + separators(args_.size() + kwargs_.size());
      for (const PyExpr& arg : args_) size += arg.FlatSize();
      for (const auto& [name, value] : kwargs_) size += name.size() + 1 + value.FlatSize();
      break;
    case Kind::kList:
      size = 2 + separators(args_.size());
      for (const PyExpr& item : args_) size += item.FlatSize();
      break;
    case Kind::kDict:
      size = 2 + separators(items_.size());
      for (const auto& [key, value] : items_) size += key.FlatSize() + 2 + value.FlatSize();
      break;
  }
  flat_size_ = size;
  return size;
}

void PyExpr::AppendFlat(std::string& out) const {
  if (flat_) {
    out += std::string_view(*flat_);
    return;
  }
  switch (kind_) {
    case Kind::kCode:
      out += std::string_view(code_);
      return;
    case Kind::kAttr:
      callee_.front().AppendFlat(out);
      out += '.';
      out += std::string_view(code_);
      return;
    case Kind::kCall:
      callee_.front().AppendFlat(out);
      AppendFlatArgs(out);
      return;
    default:
      AppendFlatArgs(out);
  }
}

void PyExpr::AppendFlatArgs(std::string& out) const {
  bool first = true;
  auto comma = [&out, &first]() {
    if (!first) out += ", ";
    first = false;
  };
  out += kind_ == Kind::kList ? '[' : kind_ == Kind::kDict ? '{' : '(';
  for (const PyExpr& arg : args_) {
    comma();
    arg.AppendFlat(out);
  }
  for (const auto& [name, value] : kwargs_) {
    comma();
    out += std::string_view(name);
    out += '=';
    value.AppendFlat(out);
  }
  for (const auto& [key, value] : items_) {
    comma();
    key.AppendFlat(out);
    out += ": ";
    value.AppendFlat(out);
  }
  out += kind_ == Kind::kList ? ']' : kind_ == Kind::kDict ? '}' : ')';
}

namespace {

size_t LastLineLength(std::string_view text, size_t column) {
  size_t newline = text.rfind('\n');
  return newline == std::string_view::npos ? column + text.size() : text.size() - newline - 1;
}

}  // namespace

std::string PyExpr::FormatAt(size_t indent, size_t column, size_t trailing) const {
  std::string out;
  FormatInto(out, indent, column, trailing);
  return out;
}

// Appends to `out` rather than returning a string: each level of a deep
// expression would otherwise copy the text of every level below it.
void PyExpr::FormatInto(std::string& out, size_t indent, size_t column, size_t trailing) const {
  if (kind_ == Kind::kCode || column + FlatSize() + trailing <= kLineWidth) {
    AppendFlat(out);
    return;
  }
  if (kind_ == Kind::kAttr) {
    callee_.front().FormatInto(out, indent, column, code_.size() + 1 + trailing);
    out += '.';
    out += std::string_view(code_);
    return;
  }
  if (kind_ != Kind::kCall) {
    FormatArgsInto(out, indent, column, trailing);
    return;
  }
  // A call: the callee as it fits, then the arguments on its last line if
  // they fit there, else one per line.
  const size_t start = out.size();
  callee_.front().FormatInto(out, indent, column, 1);
  size_t at = LastLineLength(std::string_view(out).substr(start), column);
  FormatArgsInto(out, indent, at, trailing);
}

// The bracketed part: `(a, k=v)`, `[a, b]`, `{k: v}`, flat if it fits at
// `column`, else one element per line.
void PyExpr::FormatArgsInto(std::string& out, size_t indent, size_t column, size_t trailing) const {
  // The arguments on one line: the flat form less the callee.
  const size_t callee = kind_ == Kind::kCall ? callee_.front().FlatSize() : 0;
  const bool empty = args_.empty() && kwargs_.empty() && items_.empty();
  if (empty || column + FlatSize() - callee + trailing <= kLineWidth) {
    AppendFlatArgs(out);
    return;
  }
  const std::string pad(indent + 4, ' ');
  out += kind_ == Kind::kList ? '[' : kind_ == Kind::kDict ? '{' : '(';
  out += '\n';
  for (const PyExpr& arg : args_) {
    out += pad;
    arg.FormatInto(out, indent + 4, indent + 4, 1);
    out += ",\n";
  }
  for (const auto& [name, value] : kwargs_) {
    out += pad;
    out += std::string_view(name);
    out += '=';
    value.FormatInto(out, indent + 4, indent + 5 + name.size(), 1);
    out += ",\n";
  }
  for (const auto& [key, value] : items_) {
    out += pad;
    const size_t key_start = out.size();
    key.FormatInto(out, indent + 4, indent + 4, 2);
    const size_t key_size = out.size() - key_start;
    out += ": ";
    value.FormatInto(out, indent + 4, indent + 6 + key_size, 1);
    out += ",\n";
  }
  out.append(indent, ' ');
  out += kind_ == Kind::kList ? ']' : kind_ == Kind::kDict ? '}' : ')';
}

}  // namespace flowc::backends::airflow
