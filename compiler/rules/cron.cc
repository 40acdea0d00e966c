#include "compiler/rules/cron.h"

namespace flowc::rules {

const std::array<CronField, kCronFieldCount>& CronFields() {
  static const std::array<CronField, kCronFieldCount> kFields = {{
      {"minute", 0, 59, {}},
      {"hour", 0, 23, {}},
      {"day of month", 1, 31, {}},
      {"month",
       1,
       12,
       {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}},
      {"day of week", 0, 6, {"sun", "mon", "tue", "wed", "thu", "fri", "sat"}},
  }};
  return kFields;
}

std::optional<int> CronName(const CronField& field, std::string_view text) {
  for (size_t i = 0; i < field.names.size(); ++i) {
    std::string_view name = field.names[i];
    if (text.size() != name.size()) continue;
    bool same = true;
    for (size_t k = 0; k < name.size() && same; ++k) {
      char c = text[k];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      same = c == name[k];
    }
    if (same) return field.min + static_cast<int>(i);
  }
  return std::nullopt;
}

bool IsCronDescriptor(std::string_view spec) {
  for (std::string_view d :
       {"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}) {
    if (spec == d) return true;
  }
  return false;
}

}  // namespace flowc::rules
