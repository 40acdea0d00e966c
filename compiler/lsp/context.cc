#include "compiler/lsp/context.h"

#include <algorithm>

namespace flowc::lsp {
namespace {

using Kind = parse::Token::Kind;
constexpr size_t kNone = static_cast<size_t>(-1);

std::string_view TextOf(const parse::Token& token, std::string_view text) {
  return text.substr(token.range.offset, token.range.length);
}

size_t End(const parse::Token& token) { return token.range.offset + token.range.length; }

bool IsString(Kind kind) {
  return kind == Kind::kString || kind == Kind::kRawString || kind == Kind::kUnterminatedString;
}

bool IsWord(Kind kind) {
  return kind == Kind::kIdent || (kind >= Kind::kFlow && kind <= Kind::kNull);
}

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The last token before `index` that is not whitespace or a comment, or kNone.
size_t Prev(const std::vector<parse::Token>& tokens, size_t index) {
  while (index > 0) {
    --index;
    if (!tokens[index].is_trivia()) return index;
  }
  return kNone;
}

size_t Next(const std::vector<parse::Token>& tokens, size_t index) {
  for (++index; index < tokens.size(); ++index) {
    if (!tokens[index].is_trivia()) return index;
  }
  return kNone;
}

bool Is(const std::vector<parse::Token>& tokens, size_t index, Kind kind) {
  return index != kNone && tokens[index].kind == kind;
}

// The first token that ends after `offset` (holds it, or starts after it).
size_t FirstEndingAfter(const std::vector<parse::Token>& tokens, size_t offset) {
  return static_cast<size_t>(
      std::upper_bound(tokens.begin(), tokens.end(), offset,
                       [](size_t at, const parse::Token& t) { return at < End(t); }) -
      tokens.begin());
}

// The bracket that `index` (or the token before it) is inside of, at depth 0, walking back
// from `index` itself; kNone when a step or flow keyword comes first.
size_t Opener(const std::vector<parse::Token>& tokens, size_t index) {
  int depth = 0;
  for (size_t i = index; i != kNone; i = Prev(tokens, i)) {
    switch (tokens[i].kind) {
      case Kind::kRParen:
      case Kind::kRBrack:
      case Kind::kRBrace:
        ++depth;
        break;
      case Kind::kLParen:
      case Kind::kLBrack:
      case Kind::kLBrace:
        if (depth == 0) return i;
        --depth;
        break;
      case Kind::kStep:
      case Kind::kFlow:
      case Kind::kParam:
      case Kind::kRun:
      case Kind::kNext:
        return kNone;
      default:
        break;
    }
  }
  return kNone;
}

// The decorator whose `(` is token `open`, or "".
std::string DecoratorOf(const std::vector<parse::Token>& tokens, std::string_view text,
                        size_t open) {
  if (!Is(tokens, open, Kind::kLParen)) return "";
  size_t name = Prev(tokens, open);
  if (!Is(tokens, name, Kind::kIdent) || !Is(tokens, Prev(tokens, name), Kind::kAt)) return "";
  return std::string(TextOf(tokens[name], text));
}

// Whether string token `index` is a run's command or an element of one.
bool IsRunString(const std::vector<parse::Token>& tokens, size_t index) {
  size_t p = Prev(tokens, index);
  while (Is(tokens, p, Kind::kComma) || (p != kNone && IsString(tokens[p].kind)))
    p = Prev(tokens, p);
  if (Is(tokens, p, Kind::kLBrack)) p = Prev(tokens, p);
  return Is(tokens, p, Kind::kRun);
}

// The step whose declaration comes last before token `index`: the one whose body holds it.
std::string EnclosingStep(const std::vector<parse::Token>& tokens, std::string_view text,
                          size_t index) {
  for (size_t i = index; i != kNone; i = Prev(tokens, i)) {
    if (tokens[i].kind != Kind::kStep) continue;
    size_t name = Next(tokens, i);
    return Is(tokens, name, Kind::kIdent) ? std::string(TextOf(tokens[name], text)) : "";
  }
  return "";
}

}  // namespace

size_t TokenAt(const std::vector<parse::Token>& tokens, size_t offset) {
  size_t i = FirstEndingAfter(tokens, offset);
  bool inside = i < tokens.size() && tokens[i].range.offset <= offset;
  if (inside && !tokens[i].is_trivia() && IsWord(tokens[i].kind)) return i;
  if (i > 0 && End(tokens[i - 1]) == offset && IsWord(tokens[i - 1].kind)) return i - 1;
  return inside ? i : tokens.size();
}

bool ReferenceAt(const parse::Token& token, std::string_view text, size_t offset, std::string* name,
                 size_t* begin, size_t* end) {
  std::string_view body = TextOf(token, text);
  size_t base = token.range.offset;
  for (size_t open = body.find("{{"); open != std::string_view::npos;
       open = body.find("{{", open + 1)) {
    size_t a = open + 2;
    while (a < body.size() && body[a] == ' ') ++a;
    size_t b = a;
    while (b < body.size() && IsIdentChar(body[b])) ++b;
    size_t close = b;
    while (close < body.size() && body[close] == ' ') ++close;
    if (b == a || body.substr(close, 2) != "}}") continue;
    if (offset < base + open || offset > base + close + 2) continue;
    *name = std::string(body.substr(a, b - a));
    *begin = base + a;
    *end = base + b;
    return true;
  }
  return false;
}

bool DecoratorAt(const std::vector<parse::Token>& tokens, std::string_view text, size_t index,
                 std::string* decorator, std::string* argument) {
  if (!Is(tokens, index, Kind::kIdent)) return false;
  if (Is(tokens, Prev(tokens, index), Kind::kAt)) {
    *decorator = std::string(TextOf(tokens[index], text));
    argument->clear();
    return true;
  }
  if (!Is(tokens, Next(tokens, index), Kind::kEquals)) return false;
  size_t before = Prev(tokens, index);
  if (!Is(tokens, before, Kind::kLParen) && !Is(tokens, before, Kind::kComma)) return false;
  *decorator = DecoratorOf(tokens, text, Opener(tokens, before));
  if (decorator->empty()) return false;
  *argument = std::string(TextOf(tokens[index], text));
  return true;
}

CursorContext CompletionContext(const std::vector<parse::Token>& tokens, std::string_view text,
                                size_t offset) {
  CursorContext context;
  context.word_begin = offset;
  size_t at = FirstEndingAfter(tokens, offset);
  // Inside a string: a reference being typed after `{{`.
  size_t holder = at;
  if (at > 0 && End(tokens[at - 1]) == offset && tokens[at - 1].kind == Kind::kUnterminatedString) {
    holder = at - 1;
  }
  if (holder < tokens.size() && tokens[holder].range.offset < offset) {
    const parse::Token& token = tokens[holder];
    if (token.kind == Kind::kComment) return context;
    if (IsString(token.kind)) {
      std::string_view before = text.substr(token.range.offset, offset - token.range.offset);
      size_t open = before.rfind("{{");
      if (open == std::string_view::npos || before.find("}}", open) != std::string_view::npos) {
        return context;
      }
      size_t word = before.size();
      while (word > open + 2 && IsIdentChar(before[word - 1])) --word;
      for (size_t i = open + 2; i < word; ++i) {
        if (before[i] != ' ') return context;
      }
      if (!IsRunString(tokens, holder)) return context;
      context.kind = CursorContext::Kind::kReference;
      context.word_begin = token.range.offset + word;
      context.step = EnclosingStep(tokens, text, holder);
      return context;
    }
  }
  // A name being typed ends at the cursor; what comes before it decides what it can be.
  size_t word = kNone;
  if (at > 0 && End(tokens[at - 1]) == offset && IsWord(tokens[at - 1].kind)) word = at - 1;
  if (at < tokens.size() && tokens[at].range.offset < offset && IsWord(tokens[at].kind)) word = at;
  size_t prev;
  if (word != kNone) {
    context.word_begin = tokens[word].range.offset;
    prev = Prev(tokens, word);
  } else {
    prev = Prev(tokens, at < tokens.size() && tokens[at].range.offset < offset ? at + 1 : at);
  }
  if (prev == kNone) return context;
  context.step = EnclosingStep(tokens, text, prev);
  Kind kind = tokens[prev].kind;
  if (kind == Kind::kAt && End(tokens[prev]) == context.word_begin) {
    context.kind = CursorContext::Kind::kDecoratorName;
    return context;
  }
  if (kind == Kind::kNext) {
    context.kind = CursorContext::Kind::kNextTarget;
    return context;
  }
  if (kind != Kind::kComma && kind != Kind::kLParen) return context;
  // A comma of a `next` list: names and commas back to `next`.
  std::vector<std::string> targets;
  for (size_t i = Prev(tokens, prev); kind == Kind::kComma && Is(tokens, i, Kind::kIdent);) {
    targets.emplace_back(TextOf(tokens[i], text));
    size_t before = Prev(tokens, i);
    if (Is(tokens, before, Kind::kNext)) {
      std::reverse(targets.begin(), targets.end());
      context.kind = CursorContext::Kind::kNextTarget;
      context.given = std::move(targets);
      return context;
    }
    if (!Is(tokens, before, Kind::kComma)) break;
    i = Prev(tokens, before);
  }
  // An argument's name inside a decorator's parentheses.
  size_t open = Opener(tokens, prev);
  context.decorator = DecoratorOf(tokens, text, open);
  if (context.decorator.empty()) return context;
  context.kind = CursorContext::Kind::kArgumentName;
  int depth = 0;
  for (size_t i = Next(tokens, open); i != kNone; i = Next(tokens, i)) {
    Kind k = tokens[i].kind;
    if (k == Kind::kLParen || k == Kind::kLBrack || k == Kind::kLBrace) ++depth;
    if (k == Kind::kRParen || k == Kind::kRBrack || k == Kind::kRBrace) {
      if (depth-- == 0) break;
    }
    if (k == Kind::kStep || k == Kind::kFlow || k == Kind::kAt) break;
    if (depth == 0 && k == Kind::kIdent && i != word &&
        Is(tokens, Next(tokens, i), Kind::kEquals)) {
      context.given.emplace_back(TextOf(tokens[i], text));
    }
  }
  return context;
}

}  // namespace flowc::lsp
