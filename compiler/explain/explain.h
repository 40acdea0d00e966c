// `flowc explain CODE` and the two reference pages `flowc docs` writes.
//
// Both print text the compiler already holds: the codes of compiler/diag/codes.def with their
// examples (examples.def), and the decorator table (compiler/graph/decorator_table.cc), whose
// Markdown (compiler/graph/decorator_docs.h) the language server's hover shows too. An example's
// message is never written by hand: it is what the stages report for it, run through `Runner`,
// which the driver gives (its own `check`, `compile` and `validate` paths), so this folder copies
// no stage.
#ifndef FLOWC_EXPLAIN_EXPLAIN_H_
#define FLOWC_EXPLAIN_EXPLAIN_H_

#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/diag/diagnostics.h"

namespace flowc::explain {

// The command an example runs under: `flowc validate` for a YAML example, else `flowc check`
// when `target` is empty and `flowc compile --target TARGET` otherwise.
struct Invocation {
  std::string_view target;
  bool validate = false;
};

// Runs the stages on `file` as `how` says, reporting into `diagnostics`.
using Runner = std::function<void(const diag::SourceFile& file, const Invocation& how,
                                  diag::Diagnostics& diagnostics)>;

// The section of docs/diagnostics.md for `code`, from its "## E014" heading to the end of its
// last line: what it means, its example and what flowc reports for it, how to fix it.
std::string Section(diag::Code code, const Runner& run);

// docs/diagnostics.md and docs/decorators.md, whole.
std::string DiagnosticsPage(const Runner& run);
std::string DecoratorsPage();

// Each page's file name in docs/ and its text, as `flowc docs` writes them.
std::vector<std::pair<std::string, std::string>> Pages(const Runner& run);

// `flowc explain CODE`: the code's Section on `out` and 0; for a code that does not exist, a
// usage error with a did-you-mean on `err` and 2 (the driver's kExitUsage).
int RunExplain(std::string_view code, const Runner& run, std::ostream& out, std::ostream& err);

}  // namespace flowc::explain

#endif  // FLOWC_EXPLAIN_EXPLAIN_H_
