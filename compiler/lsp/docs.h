// Decorator documentation in Markdown, from the one decorator table
// (compiler/graph/decorator_table.h): hover and completion both print it from here, and
// docs/decorators.md is made of the same text (compiler/explain), so the editor's help, the
// page and `flowc check` read the same names, types, limits and defaults.
#ifndef FLOWC_LSP_DOCS_H_
#define FLOWC_LSP_DOCS_H_

#include <string>

#include "compiler/graph/decorator_table.h"

namespace flowc::lsp {

namespace table = graph::decorator_table;

// "integer from 1 to 16, default 3": the argument's type, limits and default.
std::string ArgumentSummary(const table::ArgSpec& arg);
// A decorator: what it does, where it goes, an example, what it becomes on each target, its
// arguments. The body of its section of docs/decorators.md.
std::string DecoratorMarkdown(const table::DecoratorSpec& spec);
// An argument: its summary, what it does and what it becomes. The body of its section of
// docs/decorators.md.
std::string ArgumentMarkdown(const table::DecoratorSpec& spec, const table::ArgSpec& arg);

}  // namespace flowc::lsp

#endif  // FLOWC_LSP_DOCS_H_
