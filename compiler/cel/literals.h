// CEL's literals (cel-spec doc/langdef.md, "Syntax": numeric and string literals, escapes),
// from the token's text to a value. parse.cc calls them; they need no ANTLR type.
#ifndef FLOWC_CEL_LITERALS_H_
#define FLOWC_CEL_LITERALS_H_

#include <string>

#include "compiler/cel/value.h"

namespace flowc::cel {

// Decimal or 0x hexadecimal; `negative` when the literal had a leading '-', so that
// -9223372036854775808 is in range.
bool ParseIntLiteral(const std::string& text, bool negative, Value* out, std::string* error);
bool ParseUintLiteral(const std::string& text, Value* out, std::string* error);
bool ParseDoubleLiteral(const std::string& text, bool negative, Value* out, std::string* error);
// A string or bytes token, quotes, prefixes and escapes included.
bool ParseStringLiteral(const std::string& text, Value* out, std::string* error);

}  // namespace flowc::cel

#endif  // FLOWC_CEL_LITERALS_H_
