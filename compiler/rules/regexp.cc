#include "compiler/rules/regexp.h"

#include <re2/re2.h>

#include <memory>
#include <unordered_map>

namespace flowc::rules {
namespace {

// The options of Go's regexp.Compile: UTF-8, Perl classes and \b. RE2 logs nothing: a bad
// pattern is the caller's to report.
re2::RE2::Options GoOptions() {
  re2::RE2::Options options;
  options.set_log_errors(false);
  return options;
}

// Each thread compiles a pattern once for the run: a schema repeats a few patterns (names,
// quantities) over thousands of values. Null: RE2 cannot compile it. Patterns a rule builds
// at run time could be any number, so the cache starts over past a bound rather than grow
// with them.
const re2::RE2* Compiled(const std::string& pattern) {
  constexpr size_t kMaxCached = 4096;
  thread_local std::unordered_map<std::string, std::unique_ptr<re2::RE2>> known;
  auto it = known.find(pattern);
  if (it == known.end()) {
    if (known.size() >= kMaxCached) known.clear();
    auto re = std::make_unique<re2::RE2>(pattern, GoOptions());
    if (!re->ok()) re.reset();
    it = known.emplace(pattern, std::move(re)).first;
  }
  return it->second.get();
}

}  // namespace

bool RegexpCompiles(const std::string& pattern, std::string* error) {
  if (Compiled(pattern) != nullptr) return true;
  if (error != nullptr) *error = re2::RE2(pattern, GoOptions()).error();
  return false;
}

bool RegexpMatches(const std::string& pattern, const std::string& text) {
  const re2::RE2* re = Compiled(pattern);
  return re != nullptr && re2::RE2::PartialMatch(text, *re);
}

}  // namespace flowc::rules
