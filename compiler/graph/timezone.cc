#include "compiler/graph/timezone.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "compiler/diag/suggest.h"

namespace flowc::graph {
namespace {

// Which names are valid, and why these: a CronWorkflow's timezone goes
// through Go's time.LoadLocation (argo-workflows workflow/validate/validate.go,
// ValidateCronWorkflow: "invalid timezone"), which opens the zone file of that
// name in a zoneinfo tree or zip (go src/time/zoneinfo.go, LoadLocation). An
// Airflow DAG's timezone goes through pendulum.timezone, which since pendulum
// 3 is Python's zoneinfo.ZoneInfo and raises InvalidTimezone for an unknown key
// (pendulum src/pendulum/tz/timezone.py). Both trees are built by zic from
// the same IANA source, backward links included, so a name is valid for both
// exactly when it is a Zone or a Link of that source. tzdata.zi is that source
// in one file (the tz "zic input"; Debian's tzdata ships it): every `Z NAME`
// and `L TARGET NAME` line names one zone. Names that are not in it are
// refused even where one engine would load them: `Local` (Go only, the
// controller's own zone), `localtime` and `posix/...` (files of a system, not
// zones of the database).
std::vector<std::string> ReadNames(const std::string& path) {
  std::vector<std::string> names;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string kind, first, second;
    fields >> kind >> first;
    if (kind == "Z") {
      names.push_back(first);
    } else if (kind == "L" && fields >> second) {
      names.push_back(second);
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace

std::string TimeZoneDatabasePath() {
  const char* dir = std::getenv("TZDIR");
  return std::string(dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo") + "/tzdata.zi";
}

const std::vector<std::string>& TimeZoneNames() {
  static const std::vector<std::string> names = ReadNames(TimeZoneDatabasePath());
  return names;
}

bool IsTimeZoneName(std::string_view name) {
  const std::vector<std::string>& names = TimeZoneNames();
  return std::binary_search(names.begin(), names.end(), name);
}

bool CheckTimeZone(const ast::Value& v, diag::Reporter& report) {
  const std::vector<std::string>& names = TimeZoneNames();
  if (names.empty()) {
    report(diag::Code::kInvalidSchedule, v.range,
           fmt::format("cannot check time zone '{}': no time zone database at '{}'", v.string,
                       TimeZoneDatabasePath()))
        .SetHelp("install the tzdata package, or set TZDIR to the folder that holds tzdata.zi");
    return false;
  }
  if (IsTimeZoneName(v.string)) return true;
  // A wrong case is the commonest slip ("europe/berlin"), and edit distance
  // counts each letter of it.
  std::string suggestion;
  for (const std::string& name : names) {
    if (name.size() == v.string.size() &&
        std::equal(name.begin(), name.end(), v.string.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      suggestion = fmt::format("did you mean '{}'?", name);
      break;
    }
  }
  if (suggestion.empty()) {
    suggestion =
        diag::DidYouMean(v.string, std::vector<std::string_view>(names.begin(), names.end()));
  }
  report(diag::Code::kInvalidSchedule, v.range,
         fmt::format("'{}' is not an IANA time zone name", v.string))
      .SetHelp(suggestion.empty()
                   ? "write a name of the tz database, such as \"Europe/Berlin\" or \"UTC\""
                   : suggestion);
  return false;
}

}  // namespace flowc::graph
