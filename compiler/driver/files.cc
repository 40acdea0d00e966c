#include "compiler/driver/files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <vector>

#include <fmt/format.h>

namespace flowc::driver {

namespace {

// The rest of `in`, read a buffer at a time (an istreambuf_iterator is a call
// a character: 17 instructions a byte).
std::string ReadAll(std::istream& in) {
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) text.append(buffer, in.gcount());
  return text;
}

}  // namespace

std::optional<std::string> ReadInput(const std::string& path, std::string* error) {
  if (path == "-") return ReadAll(std::cin);
  if (IsDirectory(path)) {
    *error = fmt::format("cannot read '{}': it is a directory", path);
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = fmt::format("cannot read '{}': {}", path, std::strerror(errno));
    return std::nullopt;
  }
  return ReadAll(in);
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

namespace {

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size() - 1;
    lines.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  return lines;
}

}  // namespace

std::string UnifiedDiff(const std::string& before, const std::string& after,
                        const std::string& from, const std::string& to) {
  if (before == after) return "";
  std::vector<std::string> a = SplitLines(before), b = SplitLines(after);
  // Trim the common head and tail; diff the middle by LCS.
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head &&
         a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) {
    ++tail;
  }
  size_t n = a.size() - head - tail, m = b.size() - head - tail;
  // Edit script: ' ' keep, '-' delete, '+' insert, over the whole files.
  std::vector<std::pair<char, const std::string*>> script;
  for (size_t i = 0; i < head; ++i) script.emplace_back(' ', &a[i]);
  if (n * m <= 25'000'000) {
    std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
    for (size_t i = n; i-- > 0;) {
      for (size_t j = m; j-- > 0;) {
        lcs[i][j] = a[head + i] == b[head + j] ? lcs[i + 1][j + 1] + 1
                                               : std::max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[head + i] == b[head + j]) {
        script.emplace_back(' ', &a[head + i]);
        ++i, ++j;
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        script.emplace_back('-', &a[head + i++]);  // deletions first, as diff(1) prints
      } else {
        script.emplace_back('+', &b[head + j++]);
      }
    }
  } else {  // too large to align: replace the middle wholesale
    for (size_t i = 0; i < n; ++i) script.emplace_back('-', &a[head + i]);
    for (size_t j = 0; j < m; ++j) script.emplace_back('+', &b[head + j]);
  }
  for (size_t i = a.size() - tail; i < a.size(); ++i) script.emplace_back(' ', &a[i]);

  // Hunks with three lines of context.
  constexpr size_t kContext = 3;
  std::string out = fmt::format("--- {}\n+++ {}\n", from, to);
  size_t k = 0;
  while (k < script.size()) {
    while (k < script.size() && script[k].first == ' ') ++k;
    if (k == script.size()) break;
    size_t begin = k >= kContext ? k - kContext : 0;
    size_t end = k;
    size_t last_change = k;
    while (end < script.size()) {
      if (script[end].first != ' ') last_change = end;
      if (end - last_change > 2 * kContext) break;
      ++end;
    }
    end = std::min(script.size(), last_change + kContext + 1);
    size_t old_start = 0, new_start = 0;
    for (size_t x = 0; x < begin; ++x) {
      if (script[x].first != '+') ++old_start;
      if (script[x].first != '-') ++new_start;
    }
    size_t old_count = 0, new_count = 0;
    std::string body;
    for (size_t x = begin; x < end; ++x) {
      if (script[x].first != '+') ++old_count;
      if (script[x].first != '-') ++new_count;
      body += script[x].first;
      body += *script[x].second;
      if (body.back() != '\n') body += "\n\\ No newline at end of file\n";
    }
    out += fmt::format("@@ -{},{} +{},{} @@\n", old_start + (old_count > 0), old_count,
                       new_start + (new_count > 0), new_count);
    out += body;
    k = end;
  }
  return out;
}

}  // namespace flowc::driver
