#include "compiler/ir/analyze.h"

#include "compiler/graph/graph.h"
#include "compiler/ir/graph_to_ir.h"
#include "compiler/parse/parse.h"

namespace flowc::ir {

std::optional<Flow> Analyze(const diag::SourceFile& file, diag::Diagnostics& diagnostics,
                            const std::function<void(const ast::Flow&)>& on_ast) {
  diag::Reporter report(diagnostics, file);
  std::optional<ast::Flow> ast = parse::Parse(file, diagnostics);
  if (!ast) return std::nullopt;
  if (on_ast) on_ast(*ast);
  // Each stage consumes the one before it and frees it a step at a time, so
  // that no two are whole at once (a 100,000-step flow is 1 to 2.4 KB a step
  // in each).
  std::optional<graph::Flow> graph = graph::BuildGraph(std::move(*ast), report);
  if (!graph) return std::nullopt;
  return LowerToIr(std::move(*graph), file.path());
}

}  // namespace flowc::ir
