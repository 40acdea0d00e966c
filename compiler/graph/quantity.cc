#include "compiler/graph/quantity.h"

#include <cctype>
#include <cmath>

#include <fmt/format.h>

namespace flowc::graph {
namespace {

struct Suffix {
  std::string_view text;
  double factor;
};

constexpr Suffix kSuffixes[] = {
    {"Ki", 1024.0},   {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
    {"Pi", 1125899906842624.0}, {"Ei", 1152921504606846976.0},
    {"k", 1e3},       {"M", 1e6},        {"G", 1e9},           {"T", 1e12},
    {"P", 1e15},      {"E", 1e18},
};

// What a user most likely meant by a suffix Kubernetes does not know.
std::string SuffixHelp(std::string_view number, std::string_view suffix) {
  if (suffix.empty()) return "";
  char head = static_cast<char>(std::toupper(static_cast<unsigned char>(suffix[0])));
  if (std::string_view("KMGTPE").find(head) == std::string_view::npos) {
    return "use a suffix Kubernetes knows: Ki Mi Gi Ti Pi Ei (powers of 2) or k M G T P E "
           "(powers of 10)";
  }
  std::string decimal = head == 'K' ? "k" : std::string(1, head);
  std::string binary = std::string(1, head == 'k' ? 'K' : head) + "i";
  return fmt::format("write '{}{}' ({} bytes) or '{}{}' ({} bytes)", number, decimal,
                     "10^" + std::to_string(3 * (std::string_view("KMGTPE").find(head) + 1)),
                     number, binary,
                     "2^" + std::to_string(10 * (std::string_view("KMGTPE").find(head) + 1)));
}

}  // namespace

Quantity QuantityFromMb(int64_t mb) {
  return Quantity{fmt::format("{}M", mb), static_cast<double>(mb) * 1e6};
}

std::optional<Quantity> ParseQuantity(std::string_view text, QuantityError* error) {
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
    ++i;
  }
  std::string_view number = text.substr(0, i);
  std::string_view suffix = text.substr(i);
  bool number_ok = !number.empty() && number.find('.') == number.rfind('.') &&
                   number.front() != '.' && number.back() != '.';
  if (!number_ok) {
    *error = {fmt::format("'{}' is not a quantity", text),
              "write a size such as \"16Gi\" or \"500M\", or a number of MB such as 4096"};
    return std::nullopt;
  }
  if (suffix.empty()) {
    *error = {fmt::format("quantity '{}' has no unit", text),
              fmt::format("write the number {} without quotes for MB, or add a unit: \"{}M\", "
                          "\"{}Mi\"",
                          number, number, number)};
    return std::nullopt;
  }
  for (const Suffix& known : kSuffixes) {
    if (suffix == known.text) {
      double bytes = std::stod(std::string(number)) * known.factor;
      if (!(bytes >= 1) || !std::isfinite(bytes)) {
        *error = {fmt::format("quantity '{}' must be at least one byte", text), ""};
        return std::nullopt;
      }
      return Quantity{std::string(text), bytes};
    }
  }
  *error = {fmt::format("'{}' is not a Kubernetes quantity: unknown unit '{}'", text, suffix),
            SuffixHelp(number, suffix.substr(0, 1))};
  return std::nullopt;
}

std::string CpuQuantity(int64_t millis) {
  if (millis % 1000 == 0) return std::to_string(millis / 1000);
  return fmt::format("{}m", millis);
}

}  // namespace flowc::graph
