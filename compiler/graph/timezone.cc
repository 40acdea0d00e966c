#include "compiler/graph/timezone.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "compiler/diag/suggest.h"
#include "compiler/rules/timezone.h"

namespace flowc::graph {

bool CheckTimeZone(const ast::Value& v, diag::Reporter& report) {
  if (rules::IsTimeZoneName(v.string)) return true;
  const std::vector<std::string>& names = rules::TimeZoneNames();
  if (names.empty()) {
    report(diag::Code::kInvalidSchedule, v.range,
           fmt::format("cannot check time zone '{}': no time zone database at '{}'", v.string,
                       rules::TimeZoneDatabasePath()))
        .SetHelp("install the tzdata package, or set TZDIR to the folder that holds tzdata.zi");
    return false;
  }
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
