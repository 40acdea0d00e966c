// Time zone names for `@schedule(timezone=...)`, checked against the
// system's IANA time zone database (the tzdata package) at compile time: the
// names are compiler/rules/timezone.h's, the words here a flow author's.
//
// Used by the @schedule check in decorators.cc. Both engines that run a
// schedule resolve the name when the flow is deployed, and refuse one they do
// not know: flowc refuses it first, with a did-you-mean.
#ifndef FLOWC_GRAPH_TIMEZONE_H_
#define FLOWC_GRAPH_TIMEZONE_H_

#include "compiler/diag/diagnostics.h"
#include "compiler/parse/ast.h"

namespace flowc::graph {

// Checks `@schedule(timezone=v)`; reports at `v`, with a did-you-mean, a name
// that is not in the database. Returns whether it is.
bool CheckTimeZone(const ast::Value& v, diag::Reporter& report);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_TIMEZONE_H_
