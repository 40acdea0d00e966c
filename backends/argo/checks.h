// The shapes of a flow that Argo cannot run as written: a second namespace, a param default
// or foreach element Argo would read as its own tag, a scheduled flow's required params and
// long name, step names expr-lang reserves, names too long for the gangs' pods, and more
// than 200 templates. (Literal `{{` in a pod's strings is found while rendering.)
#ifndef FLOWC_BACKENDS_ARGO_CHECKS_H_
#define FLOWC_BACKENDS_ARGO_CHECKS_H_

#include "backends/argo/layout.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::argo {

// Reports every such shape at its source line; false if it reported any.
bool CheckFlow(const ir::Flow& flow, const Layout& layout, diag::Reporter& report);

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_CHECKS_H_
