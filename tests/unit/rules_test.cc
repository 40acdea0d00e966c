// Unit tests of compiler/rules: the one home of Kubernetes' name syntaxes and robfig/cron's
// fields. Each predicate against validation.go's regular expression on the same values, and the
// two sides that word its findings (the compiler's graph stage, `flowc validate`'s checks) agreeing
// on every value: a flow whose names the compiler accepts is one validate passes, and back.
#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "compiler/graph/cron.h"
#include "compiler/graph/names.h"
#include "compiler/rules/cron.h"
#include "compiler/rules/names.h"
#include "compiler/validate/checks/internal.h"

namespace flowc {
namespace {

using rules::Mismatch;

// Values on every edge of the syntaxes: ends, inner characters, case, dots, slashes, lengths.
std::vector<std::string> Values() {
  std::vector<std::string> out = {
      "", "a", "A", "0", "-", "_", ".", "a-b", "a_b", "a.b", "-a", "a-", "_a", "a_", ".a", "a.",
      "a..b", "a.-b", "a-.b", "ab.cd", "AB.cd", "a b", "a/b", "a/b/c", "/a", "a/", "ex.com/Name",
      "ex..com/n", "ex.com/-n", "1abc", "abc1", "a@b", "\xC3\xA9", "UPPER", "mixed-Case_1.x",
      std::string(63, 'a'), std::string(64, 'a'), std::string(253, 'a'), std::string(254, 'a'),
      std::string(63, 'a') + "." + std::string(63, 'b'), "p/" + std::string(64, 'n'),
      std::string(254, 'p') + "/n"};
  return out;
}

bool FullMatch(std::string_view regex, const std::string& value) {
  return std::regex_match(value, std::regex(std::string(regex)));
}

TEST_CASE("rules: each Match is its validation.go expression") {
  for (const std::string& v : Values()) {
    CAPTURE(v);
    CHECK((rules::MatchDns1123Label(v) == Mismatch::kNone) ==
          FullMatch(rules::kDns1123LabelFmt, v));
    CHECK((rules::MatchDns1123Subdomain(v) == Mismatch::kNone) ==
          FullMatch(rules::kDns1123SubdomainFmt, v));
    CHECK((rules::MatchDns1035Label(v) == Mismatch::kNone) ==
          FullMatch(rules::kDns1035LabelFmt, v));
    CHECK((rules::MatchQualifiedNamePart(v) == Mismatch::kNone) ==
          FullMatch(rules::kQualifiedNameFmt, v));
    CHECK((rules::MatchLabelValue(v) == Mismatch::kNone) == FullMatch(rules::kLabelValueFmt, v));
  }
}

TEST_CASE("rules: a mismatch is the first fault from the left") {
  CHECK(rules::MatchDns1123Label("") == Mismatch::kEmpty);
  CHECK(rules::MatchDns1123Label("A-") == Mismatch::kBadChar);  // the character before the end
  CHECK(rules::MatchDns1123Label("a-") == Mismatch::kBadEnds);
  CHECK(rules::MatchDns1123Subdomain("a..b") == Mismatch::kEmptyPart);
  CHECK(rules::MatchDns1123Subdomain("a-.B") == Mismatch::kBadEnds);  // its first part decides
  CHECK(rules::MatchDns1035Label("1a") == Mismatch::kBadEnds);
  CHECK(rules::MatchLabelValue("") == Mismatch::kNone);
  CHECK(rules::MatchQualifiedNamePart("") == Mismatch::kEmpty);
  rules::QualifiedName key = rules::SplitQualifiedName("ex.com/a/b");
  CHECK(key.has_prefix);
  CHECK(key.prefix == "ex.com");
  CHECK(key.name == "a/b");
  CHECK(rules::IsEnvVarName("MY VAR.x-1"));
  CHECK_FALSE(rules::IsEnvVarName(""));
  CHECK_FALSE(rules::IsEnvVarName("A=B"));
  CHECK_FALSE(rules::IsEnvVarName("tab\there"));
}

TEST_CASE("rules: the compiler and validate accept the same names") {
  namespace checks = validate::checks;
  for (const std::string& v : Values()) {
    CAPTURE(v);
    CHECK(graph::CheckDns1123Label(v).empty() == checks::IsDns1123Label(v).empty());
    CHECK(graph::CheckDns1123Subdomain(v).empty() == checks::IsDns1123Subdomain(v).empty());
    CHECK(graph::CheckLabelValue(v).empty() == checks::IsValidLabelValue(v).empty());
    CHECK(graph::CheckQualifiedName(v).empty() == checks::IsQualifiedName(v).empty());
  }
}

TEST_CASE("rules: robfig's fields, and the two cron checks on their shared subset") {
  const auto& fields = rules::CronFields();
  CHECK(fields[rules::kCronDayOfWeek].max == 6);  // spec.go's dow: Sunday is 0, never 7
  CHECK(rules::CronName(fields[3], "Jan") == 1);
  CHECK(rules::CronName(fields[3], "DEC") == 12);
  CHECK(rules::CronName(fields[4], "sun") == 0);
  CHECK_FALSE(rules::CronName(fields[4], "sunday"));
  CHECK_FALSE(rules::CronName(fields[0], "jan"));
  CHECK(rules::IsCronDescriptor("@midnight"));
  CHECK_FALSE(rules::IsCronDescriptor("@every 1h"));
  // Within the flow language's grammar (five fields, no `?`, no descriptor), both checks agree.
  for (const char* cron :
       {"0 3 * * *", "*/15 * * * *", "0 0 1 JAN,jul *", "0 9 * * MON-FRI", "0 0 * * 7",
        "60 * * * *", "0 24 * * *", "0 0 0 * *", "0 0 32 * *", "0 0 * 13 *", "0 0 * * sun-sat",
        "5-1 * * * *", "0 0 * * 0-6/2", "* * * *", "a * * * *"}) {
    CAPTURE(cron);
    CHECK(graph::CheckCron(cron).why.empty() == validate::checks::CronScheduleError(cron).empty());
  }
}

}  // namespace
}  // namespace flowc
