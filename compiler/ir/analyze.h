// The compiler's front half: a file's text through the parse, the graph and the lowering to
// the IR. Every front door runs it: the driver's commands (driver::Analyze) and the language
// server (compiler/lsp/analysis.cc), which also reads the AST on its way to the graph.
#ifndef FLOWC_IR_ANALYZE_H_
#define FLOWC_IR_ANALYZE_H_

#include <functional>
#include <optional>

#include "compiler/diag/diagnostics.h"
#include "compiler/parse/ast.h"
#include "compiler/ir/ir.h"

namespace flowc::ir {

// parse -> graph -> IR. Returns the IR, or nullopt after reporting errors. `on_ast`, when
// given, sees the AST of a file that parsed, before the graph consumes it.
std::optional<Flow> Analyze(const diag::SourceFile& file, diag::Diagnostics& diagnostics,
                            const std::function<void(const ast::Flow&)>& on_ast = nullptr);

}  // namespace flowc::ir

#endif  // FLOWC_IR_ANALYZE_H_
