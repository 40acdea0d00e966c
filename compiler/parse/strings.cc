#include "compiler/parse/strings.h"

namespace flowc::parse {
namespace {

bool IsRaw(std::string_view token) {
  return token.size() >= 6 && token.substr(0, 3) == "\"\"\"";
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Walks the escapes of a "..." token body, calling emit(text, source_offset)
// for each decoded piece. Returns false with `error` set on a bad escape.
template <typename Emit>
bool WalkEscapes(std::string_view token, EscapeError* error, Emit emit) {
  size_t i = 1;
  size_t end = token.size() - 1;  // the closing quote
  while (i < end) {
    if (token[i] != '\\') {
      emit(std::string_view(&token[i], 1), i);
      ++i;
      continue;
    }
    char c = token[i + 1];
    switch (c) {
      case '"': emit("\"", i); i += 2; continue;
      case '\\': emit("\\", i); i += 2; continue;
      case 'n': emit("\n", i); i += 2; continue;
      case 't': emit("\t", i); i += 2; continue;
      case 'r': emit("\r", i); i += 2; continue;
      case 'u': {
        size_t j = i + 2;
        if (j >= end || token[j] != '{') {
          if (error) *error = {static_cast<uint32_t>(i), 2, "'\\u' must be followed by '{HEX}'",
                               "write a code point as '\\u{e9}'"};
          return false;
        }
        uint32_t cp = 0;
        size_t digits = 0;
        for (++j; j < end && HexValue(token[j]) >= 0; ++j, ++digits) {
          cp = digits < 8 ? cp * 16 + static_cast<uint32_t>(HexValue(token[j])) : 0x110000;
        }
        if (j >= end || token[j] != '}' || digits == 0) {
          if (error) *error = {static_cast<uint32_t>(i), static_cast<uint32_t>(j - i),
                               "malformed '\\u{...}' escape", "write a code point as '\\u{e9}'"};
          return false;
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0) {
          if (error) {
            *error = {static_cast<uint32_t>(i), static_cast<uint32_t>(j + 1 - i),
                      "'" + std::string(token.substr(i, j + 1 - i)) +
                          "' is not a valid Unicode scalar value",
                      "write a code point from 1 to 10ffff, outside the surrogates d800 to dfff"};
          }
          return false;
        }
        std::string utf8;
        AppendUtf8(cp, utf8);
        emit(utf8, i);
        i = j + 1;
        continue;
      }
      default:
        if (error) {
          *error = {static_cast<uint32_t>(i), 2,
                    std::string("unknown escape sequence '\\") + c + "'",
                    "escapes are \\\" \\\\ \\n \\t \\r \\u{HEX}; use a \"\"\"raw\"\"\" string for "
                    "backslashes"};
        }
        return false;
    }
  }
  return true;
}

}  // namespace

void AppendUtf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::optional<std::string> DecodeString(std::string_view token, EscapeError* error) {
  if (IsRaw(token)) return std::string(token.substr(3, token.size() - 6));
  std::string out;
  out.reserve(token.size());
  bool ok = WalkEscapes(token, error, [&](std::string_view piece, size_t) { out += piece; });
  if (!ok) return std::nullopt;
  return out;
}

uint32_t SourceOffsetOf(std::string_view token, size_t decoded) {
  if (IsRaw(token)) return static_cast<uint32_t>(3 + decoded);
  size_t produced = 0;
  size_t found = token.size() - 1;
  WalkEscapes(token, nullptr, [&](std::string_view piece, size_t at) {
    if (found == token.size() - 1 && decoded < produced + piece.size()) found = at;
    produced += piece.size();
  });
  return static_cast<uint32_t>(found);
}

}  // namespace flowc::parse
