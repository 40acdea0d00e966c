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

}  // namespace flowc::diag
