#include "compiler/graph/cron.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/rules/cron.h"

namespace flowc::graph {
namespace {

// A field's value: a name of it (compiler/rules/cron.h), or one to four digits; -1 otherwise.
int CronValue(std::string_view text, const rules::CronField& field) {
  if (std::optional<int> named = rules::CronName(field, text)) return *named;
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
  // robfig/cron's bounds (compiler/rules/cron.h): day of week 0-6, not cron's 0-7, as Argo
  // refuses 7 when the CronWorkflow is created.
  const auto& fields = rules::CronFields();
  std::vector<std::string_view> parts;
  for (size_t i = 0; i < cron.size();) {
    while (i < cron.size() && cron[i] == ' ') ++i;
    size_t j = i;
    while (j < cron.size() && cron[j] != ' ') ++j;
    if (j > i) parts.push_back(cron.substr(i, j - i));
    i = j;
  }
  if (parts.size() != rules::kCronFieldCount) {
    std::string why = fmt::format(
        "has {} field{}; a cron expression has five (minute hour day-of-month month day-of-week)",
        parts.size(), parts.size() == 1 ? "" : "s");
    if (!cron.empty() && cron[0] == '@') {
      return {why, "write hourly=true, daily=true or weekly=true instead of a '@' descriptor"};
    }
    return {why, std::string(kExample)};
  }
  for (size_t f = 0; f < rules::kCronFieldCount; ++f) {
    const rules::CronField& field = fields[f];
    std::string_view part = parts[f];
    for (size_t start = 0;;) {
      size_t comma = part.find(',', start);
      std::string_view item = part.substr(start, comma == std::string_view::npos ? comma : comma - start);
      std::string_view range = item;
      size_t slash = item.find('/');
      if (slash != std::string_view::npos) {
        range = item.substr(0, slash);
        int step = CronValue(item.substr(slash + 1), rules::CronField{"", 1, 0, {}});
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
          bool sunday_as_7 = f == rules::kCronDayOfWeek && (lo == 7 || hi == 7);
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
