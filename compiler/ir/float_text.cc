#include "compiler/ir/float_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace flowc::ir {

std::string FloatText(double value) {
  std::string theirs = nlohmann::json(value).dump();
  if (!std::isfinite(value) || value == 0) return theirs;  // "null", "0.0", "-0.0"
  std::string out = std::signbit(value) ? "-" : "";
  // The shortest digits in scientific form: d[.ddd]e(+|-)XX.
  char buffer[32];
  std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value),
                                         std::chars_format::scientific);
  std::string_view text(buffer, static_cast<size_t>(r.ptr - buffer));
  size_t e = text.find('e');
  std::string digits(text.substr(0, e));
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  int exponent = 0;
  std::string_view exponent_text = text.substr(e + 1);
  if (exponent_text.front() == '+') exponent_text.remove_prefix(1);
  std::from_chars(exponent_text.data(), exponent_text.data() + exponent_text.size(), exponent);
  // nlohmann's layout (detail::dtoa_impl::format_buffer with min_exp -4 and
  // max_exp 15, digits10 of double): the value is 0.<digits> * 10^n.
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;
  // Where Grisu2 found as few digits, its text stands (of two shortest
  // texts equally near `value`, it may pick the other one).
  std::string their_digits;
  for (char c : theirs.substr(0, theirs.find('e'))) {
    if (c >= '0' && c <= '9' && !(their_digits.empty() && c == '0')) their_digits += c;
  }
  their_digits.erase(their_digits.find_last_not_of('0') + 1);
  if (their_digits.size() <= digits.size()) return theirs;
  if (k <= n && n <= 15) return out + digits + std::string(n - k, '0') + ".0";
  if (0 < n && n <= 15) return out + digits.substr(0, n) + "." + digits.substr(n);
  if (-4 < n && n <= 0) return out + "0." + std::string(-n, '0') + digits;
  out += digits[0];
  if (k > 1) out += "." + digits.substr(1);
  // The exponent signed and of at least two digits, as printf's %g.
  return out + fmt::format("e{}{:02d}", n - 1 < 0 ? '-' : '+', std::abs(n - 1));
}

std::string ShortestFloats(std::string_view dumped) {
  std::string out;
  out.reserve(dumped.size());
  size_t i = 0;
  while (i < dumped.size()) {
    char c = dumped[i];
    if (c == '"') {  // a string, copied to its closing quote
      size_t end = i + 1;
      while (dumped[end] != '"') end += dumped[end] == '\\' ? 2 : 1;
      out.append(dumped.substr(i, end + 1 - i));
      i = end + 1;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      size_t end = dumped.find_first_not_of("0123456789+-.eE", i);
      if (end == std::string_view::npos) end = dumped.size();
      std::string_view number = dumped.substr(i, end - i);
      double value = 0;
      if (number.find_first_of(".eE") != std::string_view::npos &&
          std::from_chars(number.data(), number.data() + number.size(), value).ec == std::errc()) {
        out += FloatText(value);
      } else {
        out.append(number);
      }
      i = end;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

}  // namespace flowc::ir
