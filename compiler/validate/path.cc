#include "compiler/validate/path.h"

#include <nlohmann/json.hpp>

namespace flowc::validate {
namespace {

bool NeedsQuotes(std::string_view key) {
  return key.empty() || key.find_first_of(".[]\"") != std::string_view::npos;
}

}  // namespace

void AppendPathElement(std::string& text, const PathElement& e) {
  if (e.is_index) {
    text += '[' + std::to_string(e.index) + ']';
  } else if (NeedsQuotes(e.key)) {
    // JSON's escaping: a key may hold any character, a quote and a backslash too.
    text += '[' +
            nlohmann::json(e.key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
            ']';
  } else {
    if (!text.empty()) text += '.';
    text += e.key;
  }
}

std::string FormatPath(const Path& path) {
  std::string out;
  for (const PathElement& e : path) AppendPathElement(out, e);
  return out;
}

std::optional<Path> ParsePath(std::string_view text) {
  Path path;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '[') {
      if (i + 1 < text.size() && text[i + 1] == '"') {
        // A quoted key: find its closing quote, skipping escapes.
        size_t j = i + 2;
        while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
        if (j + 1 >= text.size() || text[j + 1] != ']') return std::nullopt;
        nlohmann::json key =
            nlohmann::json::parse(text.substr(i + 1, j - i), nullptr, /*allow_exceptions=*/false);
        if (!key.is_string()) return std::nullopt;
        path.push_back(Key(key.get<std::string>()));
        i = j + 2;
      } else {
        size_t j = text.find(']', i);
        if (j == std::string_view::npos || j == i + 1) return std::nullopt;
        size_t index = 0;
        for (size_t k = i + 1; k < j; ++k) {
          if (text[k] < '0' || text[k] > '9' || index > 100000000) return std::nullopt;
          index = index * 10 + static_cast<size_t>(text[k] - '0');
        }
        path.push_back(Index(index));
        i = j + 1;
      }
    } else {
      if (text[i] == '.') {
        if (path.empty()) return std::nullopt;
        ++i;
      }
      size_t j = text.find_first_of(".[", i);
      if (j == std::string_view::npos) j = text.size();
      if (j == i) return std::nullopt;
      path.push_back(Key(std::string(text.substr(i, j - i))));
      i = j;
    }
  }
  return path;
}

}  // namespace flowc::validate
