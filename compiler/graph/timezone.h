// Time zone names for `@schedule(timezone=...)`, checked against the
// system's IANA time zone database (the tzdata package) at compile time.
//
// Used by the @schedule check in decorators.cc. Both engines that run a
// schedule resolve the name when the flow is deployed, and refuse one they do
// not know: flowc refuses it first, with a did-you-mean.
#ifndef FLOWC_GRAPH_TIMEZONE_H_
#define FLOWC_GRAPH_TIMEZONE_H_

#include <string>
#include <string_view>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/parse/ast.h"

namespace flowc::graph {

// Every time zone name of the database, or an empty list when it cannot be
// read. The database is the folder named by $TZDIR (as glibc reads it), else
// /usr/share/zoneinfo; read once per process.
const std::vector<std::string>& TimeZoneNames();

// Where TimeZoneNames() reads the names, for a diagnostic that cannot find
// them.
std::string TimeZoneDatabasePath();

// Whether `name` is one of TimeZoneNames().
bool IsTimeZoneName(std::string_view name);

// Checks `@schedule(timezone=v)`; reports at `v`, with a did-you-mean, a name
// that is not in the database. Returns whether it is.
bool CheckTimeZone(const ast::Value& v, diag::Reporter& report);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_TIMEZONE_H_
