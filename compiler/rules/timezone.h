// Time zone names, checked against the system's IANA time zone database (the tzdata package):
// the names a CronWorkflow's timezone and an Airflow DAG's timezone may take (timezone.cc says
// why these). The flow language's `@schedule(timezone=...)` (compiler/graph/timezone.h) and
// `flowc validate`'s CronWorkflow check (compiler/validate/checks/cron.cc) both read them here.
#ifndef FLOWC_RULES_TIMEZONE_H_
#define FLOWC_RULES_TIMEZONE_H_

#include <string>
#include <string_view>
#include <vector>

namespace flowc::rules {

// Every time zone name of the database, or an empty list when it cannot be
// read. The database is the folder named by $TZDIR (as glibc reads it), else
// /usr/share/zoneinfo; read once per process.
const std::vector<std::string>& TimeZoneNames();

// Where TimeZoneNames() reads the names, for a diagnostic that cannot find
// them.
std::string TimeZoneDatabasePath();

// Whether `name` is one of TimeZoneNames().
bool IsTimeZoneName(std::string_view name);

}  // namespace flowc::rules

#endif  // FLOWC_RULES_TIMEZONE_H_
