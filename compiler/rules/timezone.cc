#include "compiler/rules/timezone.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace flowc::rules {
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
// The database's text, read once per process; "" when it cannot be read.
const std::string& DatabaseText() {
  static const std::string text = [] {
    std::ifstream in(TimeZoneDatabasePath(), std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();  // a buffer at a time, not a call a character
    return all.str();
  }();
  return text;
}

// The name a line of the database defines: NAME of `Z NAME ...` and of `L TARGET NAME`; ""
// for every other line.
std::string_view DefinedName(std::string_view line) {
  auto field = [&line]() {
    size_t begin = line.find_first_not_of(" \t\r");
    if (begin == std::string_view::npos) return std::string_view();
    line.remove_prefix(begin);
    std::string_view word = line.substr(0, line.find_first_of(" \t\r"));
    line.remove_prefix(word.size());
    return word;
  };
  std::string_view kind = field();
  std::string_view name = field();
  if (kind == "L") name = field();
  return kind == "Z" || kind == "L" ? name : std::string_view();
}

// Calls `visit` with each name the database defines.
template <typename Visit>
void ForEachName(Visit visit) {
  std::string_view text = DatabaseText();
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view name = DefinedName(text.substr(0, end));
    if (!name.empty()) visit(name);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
}

}  // namespace

std::string TimeZoneDatabasePath() {
  const char* dir = std::getenv("TZDIR");
  return std::string(dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo") + "/tzdata.zi";
}

const std::vector<std::string>& TimeZoneNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    ForEachName([&out](std::string_view name) { out.emplace_back(name); });
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }();
  return names;
}

// Only the lines where the name occurs are read (a search of the text at memchr's speed):
// reading every line cost 3.4 M instructions, a quarter of a small flow's compile.
bool IsTimeZoneName(std::string_view name) {
  if (name.empty()) return false;
  std::string_view text = DatabaseText();
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    size_t begin = text.rfind('\n', at);
    begin = begin == std::string_view::npos ? 0 : begin + 1;
    if (DefinedName(text.substr(begin, text.find('\n', at) - begin)) == name) return true;
  }
  return false;
}

}  // namespace flowc::rules
