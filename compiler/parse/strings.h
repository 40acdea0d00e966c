// Decoding of string literals (docs/language.md "Lexical rules").
//
// Shared by the parse stage, which decodes every literal, and by later stages
// that need to point at a position inside a literal (a bad `{{ref}}`).
#ifndef FLOWC_PARSE_STRINGS_H_
#define FLOWC_PARSE_STRINGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "compiler/diag/source.h"

namespace flowc::parse {

struct EscapeError {
  uint32_t offset;  // byte offset of the bad escape within the token text
  uint32_t length;
  std::string message;
  std::string help;
};

// Decodes a token's text (quotes included). `"""` literals are returned as
// written; `"` literals have their escapes replaced. On a bad escape, returns
// nullopt and sets `error`.
std::optional<std::string> DecodeString(std::string_view token, EscapeError* error);

// Byte offset within `token` of the character that produced byte `decoded` of
// the decoded text, so a diagnostic can point inside a literal.
uint32_t SourceOffsetOf(std::string_view token, size_t decoded);

// Appends code point `cp` as UTF-8.
void AppendUtf8(uint32_t cp, std::string& out);

// The byte offset of the first invalid UTF-8 sequence in `text`, if any (the diagnostics
// library's, which `flowc validate` shares).
using diag::FindInvalidUtf8;

}  // namespace flowc::parse

#endif  // FLOWC_PARSE_STRINGS_H_
