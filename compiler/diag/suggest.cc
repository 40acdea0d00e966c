#include "compiler/diag/suggest.h"

#include <algorithm>

#include <fmt/format.h>

namespace flowc::diag {
namespace {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      size_t cost = (a[i - 1] == b[j - 1]) ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string ClosestMatch(std::string_view name, const std::vector<std::string_view>& candidates) {
  size_t limit = std::max<size_t>(1, (name.size() + 2) / 3);
  std::string_view best;
  size_t best_distance = limit + 1;
  for (std::string_view candidate : candidates) {
    if (candidate == name) continue;
    size_t distance = EditDistance(name, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return std::string(best);
}

std::string DidYouMean(std::string_view name, const std::vector<std::string_view>& candidates) {
  std::string match = ClosestMatch(name, candidates);
  return match.empty() ? std::string() : fmt::format("did you mean '{}'?", match);
}

}  // namespace flowc::diag
