#include "compiler/diag/source.h"

#include <algorithm>

namespace flowc::diag {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = text_.find('\n'); i != std::string::npos; i = text_.find('\n', i + 1)) {
    line_starts_.push_back(static_cast<uint32_t>(i + 1));
  }
}

SourceRange SourceFile::RangeAt(uint32_t offset, uint32_t length) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - line_starts_.begin());
  uint32_t column = 1;
  uint32_t begin = line_starts_[line - 1];
  if (line == 1 && offset >= kByteOrderMark.size() &&
      std::string_view(text_).substr(0, kByteOrderMark.size()) == kByteOrderMark) {
    begin = kByteOrderMark.size();
  }
  for (uint32_t i = begin; i < offset; ++i) {
    // Count code points: skip UTF-8 continuation bytes.
    if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++column;
  }
  return SourceRange{offset, length, line, column};
}

std::string_view SourceFile::Line(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  uint32_t begin = line_starts_[line - 1];
  uint32_t end = line < line_starts_.size() ? line_starts_[line] - 1
                                            : static_cast<uint32_t>(text_.size());
  std::string_view view(text_.data() + begin, end - begin);
  if (!view.empty() && view.back() == '\r') view.remove_suffix(1);
  if (line == 1 && view.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
    view.remove_prefix(kByteOrderMark.size());
  }
  return view;
}

std::optional<size_t> FindInvalidUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    size_t n;
    uint32_t cp;
    if (c < 0x80) {
      if (c == 0) return i;  // NUL is never part of a flow
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      n = 1, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3, cp = c & 0x07;
    } else {
      return i;
    }
    for (size_t k = 1; k <= n; ++k) {
      if (i + k >= text.size()) return i;
      unsigned char d = static_cast<unsigned char>(text[i + k]);
      if ((d & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (d & 0x3F);
    }
    static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += n + 1;
  }
  return std::nullopt;
}

}  // namespace flowc::diag
