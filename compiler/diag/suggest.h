// "Did you mean" suggestions for misspelt names (steps, params, decorators,
// arguments), by edit distance.
#ifndef FLOWC_DIAG_SUGGEST_H_
#define FLOWC_DIAG_SUGGEST_H_

#include <string>
#include <string_view>
#include <vector>

namespace flowc::diag {

// The candidate closest to `name`, or "" when none is close enough to be a
// plausible typo (at most one edit per three characters, and at least one).
std::string ClosestMatch(std::string_view name, const std::vector<std::string_view>& candidates);

// "did you mean 'x'?" for the closest candidate, or "".
std::string DidYouMean(std::string_view name, const std::vector<std::string_view>& candidates);

}  // namespace flowc::diag

#endif  // FLOWC_DIAG_SUGGEST_H_
