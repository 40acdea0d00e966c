// docs/decorators.md: the decorator table's Markdown (compiler/graph/decorator_docs.h), which the
// language server's hover shows, arranged as a page. diagnostics.md is in explain.cc.
#include <fmt/format.h>

#include "compiler/explain/explain.h"
#include "compiler/graph/decorator_docs.h"

namespace flowc::explain {

namespace table = graph::decorator_table;

std::string DecoratorsPage() {
  std::string out =
      "# Decorators\n"
      "\n"
      "<!-- Written by `flowc docs -o docs` from compiler/graph/decorator_table.cc; edit the "
      "table, then run it. -->\n"
      "\n"
      "A decorator written above a `step` configures that step; one written above `flow` "
      "configures every step that does not set the same argument itself. Each section below is "
      "what an editor's hover shows for the decorator, then for each argument: its type, "
      "limits and default, what it does, and what it becomes in the output. Every field of a "
      "step's pod is computed once and rendered the same on every target: Argo and JobSet "
      "write it in the pod's YAML, Airflow as the `k8s.V1...` objects of a "
      "KubernetesPodOperator.\n"
      "\n"
      "| Decorator | What it does |\n"
      "|-----------|--------------|\n";
  for (const table::DecoratorSpec& spec : table::Table()) {
    out += fmt::format("| [@{0}](#{0}) | {1} |\n", spec.name, spec.doc);
  }
  for (const table::DecoratorSpec& spec : table::Table()) {
    out += fmt::format("\n## @{}\n\n{}\n", spec.name, table::DecoratorMarkdown(spec));
    for (const table::ArgSpec& arg : spec.args) {
      out += fmt::format("\n### @{}: {}\n\n{}\n", spec.name, arg.name,
                         table::ArgumentMarkdown(spec, arg));
    }
  }
  return out;
}

}  // namespace flowc::explain
