// What is at a place in a document's text, read from its tokens (parse::Lex), so that it
// works on text that does not parse, as text being typed rarely does.
//
// Completion asks what may be written at the cursor (a decorator name after `@`, an argument
// name inside a decorator's parentheses, a step after `next` or a comma of its list, a
// reference inside `{{` of a run string); hover asks what the token under the cursor is.
// Both are answered from the tokens around the place alone: no second parser.
#ifndef FLOWC_LSP_CONTEXT_H_
#define FLOWC_LSP_CONTEXT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/parse/parse.h"

namespace flowc::lsp {

struct CursorContext {
  enum class Kind {
    kNone,
    kDecoratorName,  // after `@`
    kArgumentName,   // where an argument's name goes inside `@decorator(...)`
    kNextTarget,     // after `next`, or after a comma of a `next` list
    kReference,      // inside `{{` of a run string
  };
  Kind kind = Kind::kNone;
  std::string decorator;           // kArgumentName: which decorator
  std::vector<std::string> given;  // kArgumentName: the arguments written; kNextTarget: the targets
  std::string step;                // the step whose body holds the place, "" outside one
  size_t word_begin = 0;           // the part of a name already typed: [word_begin, cursor)
};

// What may be written at byte `offset` of `text`, whose tokens are `tokens`.
CursorContext CompletionContext(const std::vector<parse::Token>& tokens, std::string_view text,
                                size_t offset);

// The token under byte `offset`: the one holding it, or an identifier ending at it (a cursor
// right after a name is on that name). Returns its index, or tokens.size().
size_t TokenAt(const std::vector<parse::Token>& tokens, size_t offset);

// For the identifier token `index`: the decorator it names (after `@`), or the decorator whose
// argument it names (inside its parentheses, before `=`). Sets `decorator` and, for an
// argument, `argument`; false when it is neither.
bool DecoratorAt(const std::vector<parse::Token>& tokens, std::string_view text, size_t index,
                 std::string* decorator, std::string* argument);

// Inside the string token `token` at `offset`, the `{{reference}}` name the offset is on
// ({{item}}, {{run_id}}, a param, ...) and its byte span; false when there is none.
bool ReferenceAt(const parse::Token& token, std::string_view text, size_t offset, std::string* name,
                 size_t* begin, size_t* end);

}  // namespace flowc::lsp

#endif  // FLOWC_LSP_CONTEXT_H_
