// The shapes of a flow that Argo cannot run as written: a second namespace, a param default
// or foreach element Argo would read as its own tag, a scheduled flow's required params and
// long name, step names expr-lang reserves, and names too long for the gangs' pods. (Literal
// `{{` in a pod's strings is found while rendering; a flow over Argo's counts is split, split.h.)
#ifndef FLOWC_BACKENDS_ARGO_CHECKS_H_
#define FLOWC_BACKENDS_ARGO_CHECKS_H_

#include <string_view>

#include "backends/argo/layout.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::argo {

// Reports every such shape at its source line; false if it reported any.
bool CheckFlow(const ir::Flow& flow, const Layout& layout, diag::Reporter& report);

// Reports at `at` that `subject` has the `noun` `tag` (e.g. "step 'x'", "text"), which Argo
// would read as its own template tag, with the note on Argo's substitution and `help`.
void ReportArgoTag(diag::Reporter& report, diag::SourceRange at, std::string_view subject,
                   std::string_view noun, std::string_view tag, std::string_view help);

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_CHECKS_H_
