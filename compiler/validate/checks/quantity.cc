// Exact Kubernetes quantities, for the resource checks of pod.cc: "500m" is not a whole number
// of a device and "1Gi" equals "1024Mi", so the comparison is of decimals, never of doubles.
// The grammar is k8s.io/apimachinery/pkg/api/resource/quantity.go (ParseQuantity): a signed
// decimal, then a binary suffix (Ki..Ei), a decimal suffix (n u m k M G T P E) or a decimal
// exponent (e3, E-2). A number in the YAML is a quantity too (Quantity.UnmarshalJSON). The flow
// language's quantities (compiler/graph/quantity.h) are a narrower grammar on purpose, not a
// copy of this one: a flow refuses forms a user could mean two ways.
#include <algorithm>

#include "compiler/validate/checks/internal.h"

namespace flowc::validate::checks {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// digits *= factor, digits a decimal string without sign.
void Multiply(std::string& digits, int factor) {
  int carry = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    int d = (*it - '0') * factor + carry;
    *it = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
  while (carry > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + carry % 10));
    carry /= 10;
  }
}

void Normalize(Quantity& q) {
  size_t first = q.digits.find_first_not_of('0');
  q.digits.erase(0, first == std::string::npos ? q.digits.size() : first);
  while (!q.digits.empty() && q.digits.back() == '0') {
    q.digits.pop_back();
    ++q.exponent;
  }
  if (q.digits.empty()) {
    q.negative = false;
    q.exponent = 0;
  }
}

std::optional<Quantity> ParseText(std::string_view s) {
  Quantity q;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) q.negative = s[i++] == '-';
  size_t whole = 0, fraction = 0;
  while (i < s.size() && IsDigit(s[i])) q.digits += s[i++], ++whole;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && IsDigit(s[i])) q.digits += s[i++], ++fraction;
  }
  if (whole + fraction == 0) return std::nullopt;
  q.exponent = -static_cast<long>(fraction);
  std::string_view suffix = s.substr(i);
  static constexpr std::pair<std::string_view, int> kDecimal[] = {
      {"", 0},  {"n", -9}, {"u", -6}, {"m", -3}, {"k", 3},
      {"M", 6}, {"G", 9},  {"T", 12}, {"P", 15}, {"E", 18}};
  static constexpr std::string_view kBinary[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  bool known = false;
  for (const auto& [text, power] : kDecimal) {
    if (suffix == text) q.exponent += power, known = true;
  }
  for (size_t k = 0; k < std::size(kBinary) && !known; ++k) {
    if (suffix != kBinary[k]) continue;
    for (size_t n = 0; n <= k; ++n) Multiply(q.digits, 1024);
    known = true;
  }
  if (!known && suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    size_t j = 1;
    bool negative = false;
    if (suffix[j] == '+' || suffix[j] == '-') negative = suffix[j++] == '-';
    // An exponent beyond any resource's range is refused rather than carried as digits.
    if (j == suffix.size() || suffix.size() - j > 6) return std::nullopt;
    long power = 0;
    for (; j < suffix.size(); ++j) {
      if (!IsDigit(suffix[j])) return std::nullopt;
      power = power * 10 + (suffix[j] - '0');
    }
    q.exponent += negative ? -power : power;
    known = true;
  }
  if (!known) return std::nullopt;
  Normalize(q);
  return q;
}

}  // namespace

std::optional<Quantity> ParseQuantity(const Json& value) {
  if (value.is_string()) return ParseText(value.get_ref<const std::string&>());
  if (value.is_number()) return ParseText(value.dump());
  return std::nullopt;
}

int Compare(const Quantity& a, const Quantity& b) {
  int sign_a = a.digits.empty() ? 0 : a.negative ? -1 : 1;
  int sign_b = b.digits.empty() ? 0 : b.negative ? -1 : 1;
  if (sign_a != sign_b) return sign_a < sign_b ? -1 : 1;
  if (sign_a == 0) return 0;
  // Same sign: compare magnitudes by their leading digit's place, then digit by digit.
  int magnitude = 0;
  long order_a = static_cast<long>(a.digits.size()) + a.exponent;
  long order_b = static_cast<long>(b.digits.size()) + b.exponent;
  if (order_a != order_b) {
    magnitude = order_a < order_b ? -1 : 1;
  } else {
    size_t n = std::max(a.digits.size(), b.digits.size());
    for (size_t k = 0; k < n && magnitude == 0; ++k) {
      char da = k < a.digits.size() ? a.digits[k] : '0';
      char db = k < b.digits.size() ? b.digits[k] : '0';
      if (da != db) magnitude = da < db ? -1 : 1;
    }
  }
  return sign_a * magnitude;
}

bool IsWhole(const Quantity& q) { return q.exponent >= 0; }

}  // namespace flowc::validate::checks
