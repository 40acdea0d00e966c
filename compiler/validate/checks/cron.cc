// A CronWorkflow's own checks, after argo-workflows workflow/validate/validate.go
// (ValidateCronWorkflow): at least one schedule, each accepted by robfig/cron v3's
// ParseStandard ("cron schedule %s is malformed: %s"), a known concurrencyPolicy, a
// non-negative startingDeadlineSeconds, and a time zone Go's time.LoadLocation can load.
//
// The schedule grammar is robfig/cron v3 parser.go (Parse with Minute | Hour | Dom | Month | Dow
// | Descriptor): an optional "TZ=" or "CRON_TZ=" prefix, a descriptor (@yearly, @annually,
// @monthly, @weekly, @daily, @midnight, @hourly, "@every <duration>") or five fields split on
// white space, each a comma list of `*`/`?`/N/N-M with an optional /step, months and days of
// week also by name, within robfig's bounds (spec.go: day of week 0-6). The bounds, the names and
// the descriptors are compiler/rules/cron.h's, which compiler/graph/cron.cc reads too for the flow
// language's own @schedule, a subset of this grammar (five fields, no `?`, no descriptor) with
// messages written for a flow's author; this one keeps robfig's messages, as `argo lint` prints
// them. Time zone names are compiler/rules/timezone.h's.
#include <fmt/format.h>

#include <cctype>
#include <climits>

#include "compiler/diag/suggest.h"
#include "compiler/rules/cron.h"
#include "compiler/rules/timezone.h"
#include "compiler/validate/checks/internal.h"

namespace flowc::validate::checks {
namespace {

using Bounds = rules::CronField;

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (size_t start = 0;;) {
    size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

// strconv.Atoi, and mustParseInt's refusal of a negative number.
bool ParseInt(std::string_view expr, int* value, std::string* error) {
  std::string_view digits = expr;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  long long v = 0;
  bool ok = !digits.empty() && digits.size() < 10;
  for (char c : digits) {
    if (c < '0' || c > '9') ok = false;
    v = v * 10 + (c - '0');
  }
  if (!ok) {
    *error = fmt::format("failed to parse int from {}: strconv.Atoi: parsing {}: invalid syntax",
                         expr, Quote(expr));
    return false;
  }
  if (negative && v != 0) {
    *error = fmt::format("negative number ({}) not allowed: {}", -v, expr);
    return false;
  }
  *value = static_cast<int>(v);
  return true;
}

bool ParseIntOrName(std::string_view expr, const Bounds& bounds, int* value, std::string* error) {
  if (std::optional<int> named = rules::CronName(bounds, expr)) {
    *value = *named;
    return true;
  }
  return ParseInt(expr, value, error);
}

// getRange: "" when `expr` is a valid range of the field.
std::string RangeError(std::string_view expr, const Bounds& b) {
  std::vector<std::string_view> range_and_step = Split(expr, '/');
  std::vector<std::string_view> low_and_high = Split(range_and_step[0], '-');
  int start = 0, end = 0, step = 1;
  std::string error;
  if (low_and_high[0] == "*" || low_and_high[0] == "?") {
    start = b.min;
    end = b.max;
  } else {
    if (!ParseIntOrName(low_and_high[0], b, &start, &error)) return error;
    if (low_and_high.size() == 1) {
      end = start;
    } else if (low_and_high.size() == 2) {
      if (!ParseIntOrName(low_and_high[1], b, &end, &error)) return error;
    } else {
      return fmt::format("too many hyphens: {}", expr);
    }
  }
  if (range_and_step.size() == 2) {
    if (!ParseInt(range_and_step[1], &step, &error)) return error;
    if (low_and_high.size() == 1) end = b.max;  // "N/step" means "N-max/step"
  } else if (range_and_step.size() > 2) {
    return fmt::format("too many slashes: {}", expr);
  }
  if (start < b.min)
    return fmt::format("beginning of range ({}) below minimum ({}): {}", start, b.min, expr);
  if (end > b.max) return fmt::format("end of range ({}) above maximum ({}): {}", end, b.max, expr);
  if (start > end)
    return fmt::format("beginning of range ({}) beyond end of range ({}): {}", start, end, expr);
  if (step == 0) return fmt::format("step of range should be a positive number: {}", expr);
  return "";
}

// Go's time.ParseDuration: "" when `s` parses.
std::string DurationError(std::string_view s) {
  std::string_view orig = s;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  if (s == "0") return "";
  if (s.empty()) return fmt::format("time: invalid duration {}", Quote(orig));
  while (!s.empty()) {
    size_t i = 0, digits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
    }
    if (digits == 0) return fmt::format("time: invalid duration {}", Quote(orig));
    size_t u = i;
    while (u < s.size() && s[u] != '.' && !std::isdigit(static_cast<unsigned char>(s[u]))) ++u;
    std::string_view unit = s.substr(i, u - i);
    if (unit.empty()) return fmt::format("time: missing unit in duration {}", Quote(orig));
    if (unit != "ns" && unit != "us" && unit != "\xC2\xB5s" && unit != "\xCE\xBCs" &&
        unit != "ms" && unit != "s" && unit != "m" && unit != "h") {
      return fmt::format("time: unknown unit {} in duration {}", Quote(unit), Quote(orig));
    }
    s.remove_prefix(u);
  }
  return "";
}

// Go's time.LoadLocation: "" and "UTC" are UTC, "Local" the controller's zone, the rest a zone
// of the tz database (compiler/rules/timezone.h reads the system's).
bool IsLocation(std::string_view name) {
  return name.empty() || name == "UTC" || name == "Local" || rules::IsTimeZoneName(name);
}

}  // namespace

std::string CronScheduleError(std::string_view spec) {
  if (spec.empty()) return "empty spec string";
  if (spec.rfind("TZ=", 0) == 0 || spec.rfind("CRON_TZ=", 0) == 0) {
    size_t eq = spec.find('=');
    size_t space = spec.find(' ');
    std::string_view zone =
        spec.substr(eq + 1, space == std::string_view::npos ? space : space - eq - 1);
    if (space == std::string_view::npos || !IsLocation(zone)) {
      return fmt::format("provided bad location {}: unknown time zone {}", zone, zone);
    }
    spec.remove_prefix(space);
    while (!spec.empty() && std::isspace(static_cast<unsigned char>(spec.front())))
      spec.remove_prefix(1);
  }
  if (!spec.empty() && spec[0] == '@') {
    if (rules::IsCronDescriptor(spec)) return "";
    if (spec.rfind(rules::kCronEveryPrefix, 0) == 0) {
      std::string error = DurationError(spec.substr(rules::kCronEveryPrefix.size()));
      return error.empty() ? "" : fmt::format("failed to parse duration {}: {}", spec, error);
    }
    return fmt::format("unrecognized descriptor: {}", spec);
  }
  std::vector<std::string_view> fields;
  for (size_t i = 0; i < spec.size();) {
    while (i < spec.size() && std::isspace(static_cast<unsigned char>(spec[i]))) ++i;
    size_t j = i;
    while (j < spec.size() && !std::isspace(static_cast<unsigned char>(spec[j]))) ++j;
    if (j > i) fields.push_back(spec.substr(i, j - i));
    i = j;
  }
  if (fields.size() != rules::kCronFieldCount) {
    std::string list;
    for (std::string_view f : fields) list += (list.empty() ? "" : " ") + std::string(f);
    return fmt::format("expected exactly 5 fields, found {}: [{}]", fields.size(), list);
  }
  for (size_t f = 0; f < rules::kCronFieldCount; ++f) {
    for (std::string_view expr : Split(fields[f], ',')) {
      if (expr.empty()) continue;  // strings.FieldsFunc drops empty items
      std::string error = RangeError(expr, rules::CronFields()[f]);
      if (!error.empty()) return error;
    }
  }
  return "";
}

void CheckCronWorkflow(const Sink& sink, const Json& spec, const Path& at) {
  const Json::array_t& schedules = Items(Get(spec, "schedules"));
  const std::string* single = Str(Get(spec, "schedule"));  // Argo 3.x, removed in 4
  if (schedules.empty() && (single == nullptr || single->empty())) {
    sink.Add(at.Key("schedules"), "Required value: cron workflow must have at least one schedule",
             "add schedules: [\"0 * * * *\"]");
  }
  auto check = [&](const Json& s, const Path& where) {
    const std::string* text = Str(&s);
    if (text == nullptr) return;
    std::string error = CronScheduleError(*text);
    if (!error.empty()) {
      sink.Add(where, fmt::format("cron schedule {} is malformed: {}", *text, error),
               "five fields: minute hour day-of-month month day-of-week, such as \"0 2 * * *\"");
    }
  };
  for (size_t i = 0; i < schedules.size(); ++i) check(schedules[i], at.Key("schedules").Index(i));
  if (single != nullptr) check(*Get(spec, "schedule"), at.Key("schedule"));
  if (const std::string* policy = Str(Get(spec, "concurrencyPolicy"));
      policy != nullptr && !policy->empty() && *policy != "Allow" && *policy != "Forbid" &&
      *policy != "Replace") {
    std::string help = diag::DidYouMean(*policy, {"Allow", "Forbid", "Replace"});
    sink.Add(at.Key("concurrencyPolicy"),
             fmt::format("'{}' is not a valid concurrencyPolicy", *policy),
             help.empty() ? "use Allow, Forbid or Replace" : help);
  }
  if (std::optional<long long> deadline = Int(Get(spec, "startingDeadlineSeconds"));
      deadline && *deadline < 0) {
    sink.Add(at.Key("startingDeadlineSeconds"), "startingDeadlineSeconds must be positive");
  }
  const std::string* zone = Str(Get(spec, "timezone"));
  if (zone == nullptr || IsLocation(*zone)) return;
  const std::vector<std::string>& names = rules::TimeZoneNames();
  if (names.empty()) {
    sink.Add(at.Key("timezone"),
             fmt::format("cannot check time zone {}: no time zone database at '{}'", Quote(*zone),
                         rules::TimeZoneDatabasePath()),
             "install the tzdata package, or set TZDIR to the folder that holds tzdata.zi");
    return;
  }
  sink.Add(at.Key("timezone"),
           fmt::format("invalid timezone {}: unknown time zone {}", Quote(*zone), *zone),
           diag::DidYouMean(*zone, std::vector<std::string_view>(names.begin(), names.end())));
}

}  // namespace flowc::validate::checks
