#include "compiler/graph/cron.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace flowc::graph {
namespace {

struct CronField {
  const char* name;
  int min;
  int max;
  std::vector<std::string_view> names;  // JAN.., SUN..
};

int CronValue(std::string_view text, const CronField& field) {
  for (size_t i = 0; i < field.names.size(); ++i) {
    if (text.size() == 3 && std::equal(text.begin(), text.end(), field.names[i].begin(),
                                       [](char a, char b) { return std::toupper(a) == b; })) {
      return field.min + static_cast<int>(i);
    }
  }
  if (text.empty() || text.size() > 4 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return -1;
  }
  return std::stoi(std::string(text));
}

}  // namespace

CronError CheckCron(std::string_view cron) {
  static constexpr std::string_view kExample =
      "for example cron=\"0 3 * * *\" runs every day at 03:00";
  static const CronField kFields[] = {
      {"minute", 0, 59, {}},
      {"hour", 0, 23, {}},
      {"day of month", 1, 31, {}},
      {"month", 1, 12, {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}},
      // 0-6, not cron's 0-7: Argo parses a CronWorkflow's schedule with robfig/cron v3, whose
      // day-of-week bounds are 0-6 (spec.go, dow), and refuses 7 when the object is created.
      {"day of week", 0, 6, {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}},
  };
  std::vector<std::string_view> parts;
  for (size_t i = 0; i < cron.size();) {
    while (i < cron.size() && cron[i] == ' ') ++i;
    size_t j = i;
    while (j < cron.size() && cron[j] != ' ') ++j;
    if (j > i) parts.push_back(cron.substr(i, j - i));
    i = j;
  }
  if (parts.size() != 5) {
    std::string why = fmt::format(
        "has {} field{}; a cron expression has five (minute hour day-of-month month day-of-week)",
        parts.size(), parts.size() == 1 ? "" : "s");
    if (!cron.empty() && cron[0] == '@') {
      return {why, "write hourly=true, daily=true or weekly=true instead of a '@' descriptor"};
    }
    return {why, std::string(kExample)};
  }
  for (size_t f = 0; f < 5; ++f) {
    const CronField& field = kFields[f];
    std::string_view part = parts[f];
    for (size_t start = 0;;) {
      size_t comma = part.find(',', start);
      std::string_view item = part.substr(start, comma == std::string_view::npos ? comma : comma - start);
      std::string_view range = item;
      size_t slash = item.find('/');
      if (slash != std::string_view::npos) {
        range = item.substr(0, slash);
        int step = CronValue(item.substr(slash + 1), CronField{"", 1, 0, {}});
        if (step < 1) {
          return {fmt::format("has a bad step '{}' in the {} field", item, field.name),
                  std::string(kExample)};
        }
      }
      if (range != "*") {
        size_t dash = range.find('-');
        std::string_view low = range.substr(0, dash);
        std::string_view high = dash == std::string_view::npos ? low : range.substr(dash + 1);
        int lo = CronValue(low, field), hi = CronValue(high, field);
        if (lo < field.min || lo > field.max || hi < field.min || hi > field.max || hi < lo) {
          std::string why = fmt::format("has '{}' in the {} field, outside {}-{}", item,
                                        field.name, field.min, field.max);
          bool sunday_as_7 = &field == &kFields[4] && (lo == 7 || hi == 7);
          return {why, sunday_as_7 ? "Sunday is 0 (or SUN): Argo's cron parser refuses 7"
                                   : std::string(kExample)};
        }
      }
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
  }
  return {};
}

}  // namespace flowc::graph
