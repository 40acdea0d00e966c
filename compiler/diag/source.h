// Source files and positions in them.
//
// A SourceFile owns the text of one input; a SourceRange points into it by
// byte offset and by 1-based line and column (columns count code points, as
// editors do). Every AST node carries a SourceRange, and every diagnostic
// renders from one.
#ifndef FLOWC_DIAG_SOURCE_H_
#define FLOWC_DIAG_SOURCE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flowc::diag {

// What some editors write first in a UTF-8 file. It is no character of the first line: columns
// do not count it, and the parser skips it.
inline constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

struct SourceRange {
  uint32_t offset = 0;  // byte offset of the first character
  uint32_t length = 0;  // bytes covered; 0 for a point
  uint32_t line = 0;    // 1-based; 0 means "no location"
  uint32_t column = 0;  // 1-based, in code points

  bool valid() const { return line != 0; }
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }

  // The range of `length` bytes starting at byte `offset`.
  SourceRange RangeAt(uint32_t offset, uint32_t length) const;
  // The text of 1-based line `line`, without its newline.
  std::string_view Line(uint32_t line) const;
  uint32_t LineCount() const { return static_cast<uint32_t>(line_starts_.size()); }

 private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
};

// The byte offset of the first invalid UTF-8 sequence in `text` (overlong forms, surrogates and
// NUL included), if any: what the flow parser and `flowc validate` both refuse to read.
std::optional<size_t> FindInvalidUtf8(std::string_view text);

}  // namespace flowc::diag

#endif  // FLOWC_DIAG_SOURCE_H_
