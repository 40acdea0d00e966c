#include "compiler/validate/pattern.h"

#include <re2/re2.h>

#include <memory>
#include <unordered_map>

namespace flowc::validate {
namespace {

// Each thread compiles a pattern once for the run: a schema repeats a few patterns (names,
// quantities) over thousands of values. Null: RE2 cannot compile it.
const re2::RE2* Compiled(const std::string& pattern) {
  thread_local std::unordered_map<std::string, std::unique_ptr<re2::RE2>> known;
  auto it = known.find(pattern);
  if (it == known.end()) {
    re2::RE2::Options options;  // UTF-8, Perl classes and \b, as Go's regexp.Compile
    options.set_log_errors(false);
    auto re = std::make_unique<re2::RE2>(pattern, options);
    if (!re->ok()) re.reset();
    it = known.emplace(pattern, std::move(re)).first;
  }
  return it->second.get();
}

}  // namespace

bool PatternCompiles(const std::string& pattern) { return Compiled(pattern) != nullptr; }

bool PatternMatches(const std::string& pattern, const std::string& text) {
  const re2::RE2* re = Compiled(pattern);
  return re != nullptr && re2::RE2::PartialMatch(text, *re);
}

}  // namespace flowc::validate
