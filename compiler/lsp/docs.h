// Decorator documentation in Markdown, from the one decorator table
// (compiler/graph/decorator_table.h): hover and completion both print it from here, so the
// editor's help and `flowc check` read the same names, types, limits and defaults.
#ifndef FLOWC_LSP_DOCS_H_
#define FLOWC_LSP_DOCS_H_

#include <string>

#include "compiler/graph/decorator_table.h"

namespace flowc::lsp {

namespace table = graph::decorator_table;

// "integer from 1 to 16, default 3": the argument's type, limits and default.
std::string ArgumentSummary(const table::ArgSpec& arg);
// A decorator: what it does, where it goes, its arguments.
std::string DecoratorMarkdown(const table::DecoratorSpec& spec);
// An argument: what it does, and its summary.
std::string ArgumentMarkdown(const table::DecoratorSpec& spec, const table::ArgSpec& arg);

}  // namespace flowc::lsp

#endif  // FLOWC_LSP_DOCS_H_
