// Parsing a CEL rule into the evaluator's tree (ast.h). The only file that sees ANTLR's
// generated parser (grammar/CelLexer.g4, grammar/CelParser.g4).
#ifndef FLOWC_CEL_PARSE_H_
#define FLOWC_CEL_PARSE_H_

#include <memory>
#include <string>
#include <string_view>

#include "compiler/cel/ast.h"

namespace flowc::cel {

// The compiled rule, or null with *error saying what is wrong and where ("at 1:7").
// Never throws.
std::unique_ptr<Program> Parse(std::string_view rule, std::string* error);

}  // namespace flowc::cel

#endif  // FLOWC_CEL_PARSE_H_
