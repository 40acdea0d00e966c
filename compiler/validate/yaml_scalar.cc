#include "compiler/validate/yaml_scalar.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace flowc::validate {
namespace {

bool OneOf(std::string_view text, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (text == w) return true;
  }
  return false;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// goyaml.v2's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool IsYamlStyleFloat(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start) return false;
  } else {
    size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && IsDigit(s[i])) ++i;
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start) return false;
  }
  return i == s.size();
}

// Go's strconv.ParseInt/ParseUint with base 0: an optional sign, then 0x/0X hex, 0o/0O or a
// leading 0 octal, 0b/0B binary, or decimal. Fills the magnitude; false when it is not one or
// overflows 64 bits.
bool ParseGoInteger(std::string_view s, bool* negative, unsigned long long* magnitude) {
  *negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    *negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  int base = 10;
  if (s.size() > 1 && s[0] == '0') {
    char p = s[1];
    if (p == 'x' || p == 'X') {
      base = 16;
      s.remove_prefix(2);
    } else if (p == 'o' || p == 'O') {
      base = 8;
      s.remove_prefix(2);
    } else if (p == 'b' || p == 'B') {
      base = 2;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
    if (s.empty()) return false;
  }
  unsigned long long value = 0;
  for (char c : s) {
    int d = IsDigit(c)               ? c - '0'
            : (c >= 'a' && c <= 'f') ? c - 'a' + 10
            : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                     : 99;
    if (d >= base) return false;
    if (value > (std::numeric_limits<unsigned long long>::max() - d) / base) return false;
    value = value * base + d;
  }
  *magnitude = value;
  return true;
}

}  // namespace

nlohmann::json JsonNumber(double value) {
  if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 9.2e18) {
    return static_cast<int64_t>(value);
  }
  return value;
}

nlohmann::json ResolvePlainScalar(std::string_view text) {
  if (OneOf(text, {"", "~", "null", "Null", "NULL"})) return nullptr;
  if (OneOf(text, {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})) {
    return true;
  }
  if (OneOf(text, {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})) {
    return false;
  }
  // .inf and .nan have no JSON form: encoding/json refuses them, so kubectl cannot send them.
  // They stay strings here, and a schema that wants a number says so.
  char first = text[0];
  if (first == '.') {
    if (IsYamlStyleFloat(text)) return JsonNumber(std::strtod(std::string(text).c_str(), nullptr));
    return std::string(text);
  }
  if (!IsDigit(first) && first != '+' && first != '-') return std::string(text);
  std::string plain;
  for (char c : text) {
    if (c != '_') plain += c;
  }
  bool negative = false;
  unsigned long long magnitude = 0;
  if (ParseGoInteger(plain, &negative, &magnitude)) {
    if (!negative) {
      if (magnitude <= static_cast<unsigned long long>(std::numeric_limits<int64_t>::max())) {
        return static_cast<int64_t>(magnitude);
      }
      return static_cast<uint64_t>(magnitude);
    }
    if (magnitude <= static_cast<unsigned long long>(std::numeric_limits<int64_t>::max()) + 1ULL) {
      return static_cast<int64_t>(0ULL - magnitude);
    }
  }
  if (IsYamlStyleFloat(plain)) {
    errno = 0;
    double value = std::strtod(plain.c_str(), nullptr);
    if (errno != ERANGE) return JsonNumber(value);
  }
  return std::string(text);
}

}  // namespace flowc::validate
