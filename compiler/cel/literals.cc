#include "compiler/cel/literals.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <limits>

#include "compiler/cel/library.h"

namespace flowc::cel {
namespace {

bool ParseMagnitude(std::string digits, uint64_t* out) {
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits = digits.substr(2);
  }
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(digits.c_str(), &end, base);
  if (errno == ERANGE || end == digits.c_str() || *end != '\0') return false;
  *out = v;
  return true;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

void AppendCodePoint(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

bool ParseIntLiteral(const std::string& text, bool negative, Value* out, std::string* error) {
  uint64_t m = 0;
  constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (!ParseMagnitude(text, &m) || m > kMax + (negative ? 1 : 0)) {
    *error = fmt::format("integer literal {}{} is out of range", negative ? "-" : "", text);
    return false;
  }
  *out = Value::Int(negative ? static_cast<int64_t>(0 - m) : static_cast<int64_t>(m));
  return true;
}

bool ParseUintLiteral(const std::string& text, Value* out, std::string* error) {
  uint64_t m = 0;
  if (!ParseMagnitude(text.substr(0, text.size() - 1), &m)) {
    *error = fmt::format("unsigned literal {} is out of range", text);
    return false;
  }
  *out = Value::Uint(m);
  return true;
}

bool ParseDoubleLiteral(const std::string& text, bool negative, Value* out, std::string* error) {
  char* end = nullptr;
  double d = std::strtod(text.c_str(), &end);
  if (*end != '\0') {
    *error = fmt::format("invalid number {}", text);
    return false;
  }
  *out = Value::Double(negative ? -d : d);
  return true;
}

bool ParseStringLiteral(const std::string& text, Value* out, std::string* error) {
  size_t i = 0;
  bool raw = false, bytes = false;
  while (i < text.size() && text[i] != '"' && text[i] != '\'') {
    char c = text[i++];
    if (c == 'r' || c == 'R') raw = true;
    if (c == 'b' || c == 'B') bytes = true;
  }
  size_t quote = text.size() - i >= 6 && text[i + 1] == text[i] && text[i + 2] == text[i] ? 3 : 1;
  std::string body = text.substr(i + quote, text.size() - i - 2 * quote);
  std::string s;
  if (raw) {
    s = body;
  } else {
    for (size_t k = 0; k < body.size(); ++k) {
      if (body[k] != '\\') {
        s.push_back(body[k]);
        continue;
      }
      char e = body[++k];  // the lexer guarantees a whole escape follows
      switch (e) {
        case 'a':
          s.push_back('\a');
          break;
        case 'b':
          s.push_back('\b');
          break;
        case 'f':
          s.push_back('\f');
          break;
        case 'n':
          s.push_back('\n');
          break;
        case 'r':
          s.push_back('\r');
          break;
        case 't':
          s.push_back('\t');
          break;
        case 'v':
          s.push_back('\v');
          break;
        case 'x':
        case 'X':
        case 'u':
        case 'U':
        case '0':
        case '1':
        case '2':
        case '3': {
          uint32_t cp = 0;
          if (e >= '0' && e <= '3') {
            cp = static_cast<uint32_t>((e - '0') * 64 + (body[k + 1] - '0') * 8 +
                                       (body[k + 2] - '0'));
            k += 2;
          } else {
            int n = e == 'u' ? 4 : e == 'U' ? 8 : 2;
            for (int h = 0; h < n; ++h) cp = cp * 16 + static_cast<uint32_t>(HexValue(body[++k]));
            if (bytes && n > 2) {
              *error = "\\u escapes are not allowed in bytes literals";
              return false;
            }
          }
          // In bytes a \x or octal escape is a byte; in strings every escape is a code point.
          if (bytes) {
            s.push_back(static_cast<char>(cp));
          } else {
            if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
              *error = fmt::format("invalid code point U+{:X} in a string literal", cp);
              return false;
            }
            AppendCodePoint(cp, &s);
          }
          break;
        }
        default:
          s.push_back(e);
          break;  // \" \' \` \\ \?
      }
    }
  }
  *out = bytes ? Value::Bytes(std::move(s)) : Value::String(std::move(s));
  return true;
}

}  // namespace flowc::cel
