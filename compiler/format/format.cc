#include "compiler/format/format.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "compiler/parse/parse.h"

namespace flowc::format {

namespace {

using Kind = parse::Token::Kind;

constexpr uint32_t kIndent = 2;        // a block's items and a broken group's elements
constexpr uint32_t kContinuation = 4;  // a line that a comment broke inside an item
constexpr uint32_t kWidth = 100;       // columns, in code points
constexpr uint32_t kNever = uint32_t{1} << 30;  // the flat width of a group that must break
constexpr size_t kNone = ~size_t{0};

// A token that is not whitespace, with what the layout needs to know about it.
struct Tok {
  Kind kind;
  std::string_view text;
  uint32_t newlines_before = 0;  // newlines in the whitespace just before it in the source
  uint32_t width = 0;            // code points on one line; kNever when it spans lines
  uint32_t last_width = 0;       // code points of its last line
  bool block = false;            // the { or } of a flow's or a step's body
  bool tight = false;            // an = directly inside ( ): a decorator's key=value
  size_t match = kNone;          // an opener's closer
  uint32_t flat_width = kNever;  // an opener's group written on one line, closer included
};

bool IsComment(const Tok& t) { return t.kind == Kind::kComment; }
bool IsOpener(Kind k) { return k == Kind::kLParen || k == Kind::kLBrack || k == Kind::kLBrace; }
bool IsCloser(Kind k) { return k == Kind::kRParen || k == Kind::kRBrack || k == Kind::kRBrace; }
bool IsItemStart(Kind k) {
  return k == Kind::kAt || k == Kind::kFlow || k == Kind::kStep || k == Kind::kParam ||
         k == Kind::kRun || k == Kind::kNext;
}

uint32_t Add(uint32_t a, uint32_t b) { return std::min(kNever, a + b); }

// Whether one space separates `a` and `b` on a line. A function of the two tokens only, so the
// same tokens are spaced the same however they were written.
bool Space(const Tok& a, const Tok& b) {
  if (a.kind == Kind::kAt || a.kind == Kind::kLParen || a.kind == Kind::kLBrack) return false;
  if (a.kind == Kind::kLBrace && !a.block) return false;
  if (b.kind == Kind::kRParen || b.kind == Kind::kRBrack || b.kind == Kind::kComma ||
      b.kind == Kind::kColon || b.kind == Kind::kLParen) {
    return false;
  }
  if (b.kind == Kind::kRBrace && !b.block) return false;
  return !a.tight && !b.tight;
}

void Measure(Tok& t) {
  uint32_t line = 0;
  bool multiline = false;
  for (char c : t.text) {
    if (c == '\n') {
      multiline = true;
      line = 0;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++line;
    }
  }
  t.width = multiline ? kNever : line;
  t.last_width = line;
}

// The tokens of `file` that the layout places: whitespace becomes newline counts, a comma
// comes before the comments written just before it (so that `a  # c` then `,` reads `a,  # c`),
// and every group knows its closer and its width on one line.
std::vector<Tok> Prepare(const diag::SourceFile& file) {
  std::vector<parse::Token> lexed = parse::Lex(file);
  std::vector<Tok> toks;
  toks.reserve(lexed.size());
  uint32_t newlines = 0;
  for (const parse::Token& lt : lexed) {
    std::string_view text(file.text().data() + lt.range.offset, lt.range.length);
    if (lt.kind == Kind::kWhitespace) {
      newlines += static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n'));
      continue;
    }
    Tok t{lt.kind, text, newlines};
    newlines = 0;
    if (t.kind == Kind::kComment) {
      while (!t.text.empty() && (t.text.back() == ' ' || t.text.back() == '\t')) {
        t.text.remove_suffix(1);
      }
    }
    Measure(t);
    size_t at = toks.size();
    if (t.kind == Kind::kComma) {
      while (at > 0 && IsComment(toks[at - 1])) --at;
    }
    toks.insert(toks.begin() + static_cast<std::ptrdiff_t>(at), t);
  }

  // Block braces, tight equals, matching and flat widths, in one pass with a stack of the open
  // groups (each accumulating its own width; a closed group adds its width to its parent).
  struct Open {
    size_t index;
    uint32_t width;
  };
  std::vector<Open> open;
  const Tok* prev = nullptr;     // the last token that is not a comment
  const Tok* before = nullptr;   // the one before it
  for (size_t i = 0; i < toks.size(); ++i) {
    Tok& t = toks[i];
    if (IsComment(t)) {
      if (!open.empty()) open.back().width = kNever;
      continue;
    }
    if (t.kind == Kind::kLBrace && prev && before && prev->kind == Kind::kIdent &&
        (before->kind == Kind::kFlow || before->kind == Kind::kStep)) {
      t.block = true;
    }
    if (t.kind == Kind::kEquals && !open.empty() && toks[open.back().index].kind == Kind::kLParen) {
      t.tight = true;
    }
    if (IsCloser(t.kind) && !open.empty()) {
      Open group = open.back();
      open.pop_back();
      Tok& opener = toks[group.index];
      t.block = opener.block;
      opener.match = i;
      uint32_t width = group.width;
      if (prev && prev->kind == Kind::kComma) width -= std::min(width, prev->width);
      opener.flat_width = opener.block ? kNever : Add(width, t.width);
      if (!open.empty() && !opener.block) open.back().width = Add(open.back().width, opener.flat_width);
    } else if (t.block) {
      open.push_back({i, kNever});  // a body: no group, but its closer must match it
    } else if (IsOpener(t.kind)) {
      if (!open.empty() && prev) open.back().width = Add(open.back().width, Space(*prev, t));
      open.push_back({i, t.width});
    } else if (!open.empty()) {
      open.back().width = Add(open.back().width, Add(prev && Space(*prev, t), t.width));
    }
    before = prev;
    prev = &t;
  }
  return toks;
}

// Writes the tokens in their layout. The cursor `pos_` moves over toks_ once; comments are
// written where the cursor meets them: on the line they trailed, or on lines of their own.
class Printer {
 public:
  explicit Printer(const std::vector<Tok>& toks) : toks_(toks) {}

  std::string Run() {
    Items(0);
    if (!out_.empty() && out_.back() != '\n') out_ += '\n';
    return std::move(out_);
  }

 private:
  // The next token that is not a comment, from the cursor on.
  size_t NextCode() const {
    size_t i = pos_;
    while (i < toks_.size() && IsComment(toks_[i])) ++i;
    return i;
  }

  void Newline(uint32_t indent, bool blank = false) {
    if (!line_start_) out_ += '\n';
    if (blank && !out_.empty()) out_ += '\n';
    line_indent_ = indent;
    line_start_ = true;
    must_break_ = false;
    col_ = 0;
  }

  // The column where `t` would start if written now.
  uint32_t StartColumn(const Tok& t) const {
    if (line_start_ || must_break_) return must_break_ ? cont_ : line_indent_;
    return col_ + (prev_ && Space(*prev_, t) ? 1 : 0);
  }

  void Put(const Tok& t) {
    if (must_break_) Newline(cont_);
    if (line_start_) {
      out_.append(line_indent_, ' ');
      col_ = line_indent_;
    } else if (prev_ && Space(*prev_, t)) {
      out_ += ' ';
      ++col_;
    }
    out_ += t.text;
    col_ = t.width == kNever ? t.last_width : col_ + t.width;
    line_start_ = false;
    prev_ = &t;
  }

  // Writes the comments at the cursor: one that trailed a token in the source trails the current
  // line; one on its own line gets its own line at `indent`. Between a block's items (`items`),
  // a blank line before such a comment is kept unless it is the block's first line. The next
  // token goes on a new line. Returns whether a comment got its own line.
  bool Comments(uint32_t indent, bool items = false, bool first = false) {
    bool own_line = false;
    while (pos_ < toks_.size() && IsComment(toks_[pos_])) {
      const Tok& c = toks_[pos_++];
      if (c.newlines_before == 0 && !line_start_) {
        out_ += "  ";
      } else {
        Newline(indent, items && (!first || own_line) && c.newlines_before > 1);
        out_.append(indent, ' ');
        own_line = true;
      }
      out_ += c.text;
      line_start_ = false;
      must_break_ = true;
    }
    return own_line;
  }

  // A block's items (or the file's), each on its own line at `indent`, up to the block's closer
  // or the end of the file. One blank line between two items (or comments) is kept.
  void Items(uint32_t indent) {
    bool first = true;
    for (;;) {
      if (Comments(indent, true, first)) first = false;
      if (pos_ >= toks_.size() || (toks_[pos_].kind == Kind::kRBrace && toks_[pos_].block)) return;
      Newline(indent, !first && toks_[pos_].newlines_before > 1);
      first = false;
      cont_ = indent + kContinuation;
      Item(indent);
    }
  }

  // One item: a decorator, a param, a run, a next, or a flow or step with its block.
  void Item(uint32_t indent) {
    Atom(0);
    for (;;) {
      size_t next = NextCode();
      if (next >= toks_.size()) return;
      const Tok& t = toks_[next];
      if (IsItemStart(t.kind) || (t.kind == Kind::kRBrace && t.block)) return;
      if (t.kind == Kind::kLBrace && t.block) {
        Comments(cont_);
        Put(toks_[pos_++]);
        if (pos_ < toks_.size() && toks_[pos_].kind == Kind::kRBrace) {
          out_ += toks_[pos_].text;  // an empty block: {}
          prev_ = &toks_[pos_++];
          ++col_;
          return;
        }
        Items(indent + kIndent);
        Newline(indent);
        if (pos_ < toks_.size()) Put(toks_[pos_++]);
        return;
      }
      Atom(0);
    }
  }

  // The token at the cursor, or the group it opens, after the comments before it. `suffix`
  // columns follow a group on its line (the comma of a broken group's element).
  void Atom(uint32_t suffix) {
    Comments(cont_);
    if (pos_ >= toks_.size()) return;
    const Tok& t = toks_[pos_];
    if (!IsOpener(t.kind) || t.block || t.match == kNone) {
      Put(toks_[pos_++]);
      return;
    }
    bool empty = t.match == pos_ + 1;
    if (t.flat_width != kNever &&
        (empty || StartColumn(t) + t.flat_width + suffix <= kWidth)) {
      // On one line: no comment inside; a trailing comma is dropped.
      for (size_t end = t.match; pos_ <= end; ++pos_) {
        const Tok& u = toks_[pos_];
        if (u.kind == Kind::kComma && IsCloser(toks_[pos_ + 1].kind)) continue;
        Put(u);
      }
      return;
    }
    Broken();
  }

  // A group one element a line, each followed by a comma, the closer back at the line's indent.
  void Broken() {
    size_t end = toks_[pos_].match;
    uint32_t saved_cont = cont_;
    Put(toks_[pos_++]);
    uint32_t base = line_indent_;
    uint32_t element = base + kIndent;
    for (;;) {
      Comments(element);
      if (pos_ >= end) break;
      Newline(element);
      cont_ = element + kContinuation;
      // A group is the last thing of its element: the comma follows it on its line.
      while (NextCode() < end && toks_[NextCode()].kind != Kind::kComma) Atom(1);
      static const Tok kComma{Kind::kComma, ",", 0, 1, 1};
      Put(kComma);
      if (pos_ < end && toks_[pos_].kind == Kind::kComma) ++pos_;
    }
    cont_ = saved_cont;
    Newline(base);
    Put(toks_[pos_++]);
  }

  const std::vector<Tok>& toks_;
  size_t pos_ = 0;
  std::string out_;
  uint32_t col_ = 0;
  uint32_t line_indent_ = 0;
  uint32_t cont_ = kContinuation;
  bool line_start_ = true;   // nothing written on the current line yet
  bool must_break_ = false;  // a comment ends the current line: the next token starts another
  const Tok* prev_ = nullptr;
};

}  // namespace

std::optional<std::string> Format(const diag::SourceFile& file, diag::Diagnostics& diagnostics) {
  if (!parse::Parse(file, diagnostics)) return std::nullopt;
  std::vector<Tok> toks = Prepare(file);
  return Printer(toks).Run();
}

}  // namespace flowc::format
