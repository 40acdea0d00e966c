// The fields of a cron expression as Argo parses a CronWorkflow's schedules: robfig/cron v3,
// ParseStandard (parser.go: Minute | Hour | Dom | Month | Dow | Descriptor). Each field's bounds
// and names are spec.go's (minutes, hours, dom, months, dow), day of week 0-6: robfig refuses
// cron's 7 for Sunday. A name is looked up in lower case (parser.go, parseIntOrName:
// strings.ToLower), so JAN, Jan and jan are one month.
//
// Two checks read these and keep only their grammar and words: the flow language's
// `@schedule(cron=...)` (compiler/graph/cron.cc, a subset: five fields split on spaces, no `?`,
// no descriptor, written for a flow's author) and `flowc validate`'s CronWorkflow check
// (compiler/validate/checks/cron.cc, robfig's whole grammar and its messages).
#ifndef FLOWC_RULES_CRON_H_
#define FLOWC_RULES_CRON_H_

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace flowc::rules {

struct CronField {
  std::string_view name;  // "minute", "day of week": how flowc's messages call the field
  int min;
  int max;
  std::vector<std::string_view> names;  // lower case, the first worth `min`; empty for numbers
};

// The five fields of a standard expression, in order: minute, hour, day of month, month, day
// of week.
inline constexpr size_t kCronFieldCount = 5;
inline constexpr size_t kCronDayOfWeek = 4;
const std::array<CronField, kCronFieldCount>& CronFields();

// The value `text` names in `field` (a month or a day of week, in any case), or nullopt.
std::optional<int> CronName(const CronField& field, std::string_view text);

// Whether `spec` is one of parser.go's fixed descriptors (@yearly, @annually, @monthly, @weekly,
// @daily, @midnight, @hourly); "@every <duration>" is apart.
bool IsCronDescriptor(std::string_view spec);
inline constexpr std::string_view kCronEveryPrefix = "@every ";

}  // namespace flowc::rules

#endif  // FLOWC_RULES_CRON_H_
