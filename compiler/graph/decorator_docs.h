// Decorator documentation in Markdown, rendered beside the one decorator table it renders
// (decorator_table.h): the language server's hover and completion print it (compiler/lsp), and
// docs/decorators.md is made of the same text (compiler/explain), so the editor's help, the
// page and `flowc check` read the same names, types, limits and defaults. Both doors read it
// here; neither depends on the other.
#ifndef FLOWC_GRAPH_DECORATOR_DOCS_H_
#define FLOWC_GRAPH_DECORATOR_DOCS_H_

#include <string>

#include "compiler/graph/decorator_table.h"

namespace flowc::graph::decorator_table {

// "integer from 1 to 16, default 3": the argument's type, limits and default.
std::string ArgumentSummary(const ArgSpec& arg);
// A decorator: what it does, where it goes, an example, what it becomes on each target, its
// arguments. The body of its section of docs/decorators.md.
std::string DecoratorMarkdown(const DecoratorSpec& spec);
// An argument: its summary, what it does and what it becomes. The body of its section of
// docs/decorators.md.
std::string ArgumentMarkdown(const DecoratorSpec& spec, const ArgSpec& arg);

}  // namespace flowc::graph::decorator_table

#endif  // FLOWC_GRAPH_DECORATOR_DOCS_H_
