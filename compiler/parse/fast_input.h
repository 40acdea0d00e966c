// The text the parser's tokens are read from, without ANTLR 4.9's copy of it.
//
// ANTLRInputStream copies the whole file into UTF-32 (four bytes a character, and more while
// it converts: 54 MB for a 2.7 MB flow). Utf8Stream reads the file where it lies. Private to
// compiler/parse.
#ifndef FLOWC_PARSE_FAST_INPUT_H_
#define FLOWC_PARSE_FAST_INPUT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "antlr4-runtime.h"

namespace flowc::parse {

// A CharStream over UTF-8 text, with ANTLRInputStream's contract (runtime/src/
// ANTLRInputStream.cpp in antlr4 4.9: LA, consume, seek, getText) and its indexes, which count
// code points. A leading byte order mark is skipped, as ANTLRInputStream drops it, but still
// counted, so an index is the same code point of the file that TokenLocator maps.
class Utf8Stream final : public antlr4::CharStream {
 public:
  // `text` is valid UTF-8 and outlives the stream. `byte_of_codepoint` is the byte offset of
  // each code point and then of the end (TokenLocator's table), or empty when `text` is ASCII.
  Utf8Stream(std::string_view text, const std::vector<uint32_t>& byte_of_codepoint);

  void consume() override;
  size_t LA(ssize_t i) override;
  ssize_t mark() override { return -1; }  // the whole text is at hand
  void release(ssize_t) override {}
  size_t index() override { return position_; }
  void seek(size_t index) override;
  size_t size() override { return size_; }
  std::string getSourceName() const override { return UNKNOWN_SOURCE_NAME; }
  std::string getText(const antlr4::misc::Interval& interval) override;
  std::string toString() const override;

  // The whole text, and the byte offset of the code point at `index`.
  std::string_view text() const { return text_; }
  size_t ByteOf(size_t index) const {
    return byte_of_codepoint_.empty() ? index : byte_of_codepoint_[index];
  }

 private:
  size_t CodePointAt(size_t index) const;

  std::string_view text_;
  const std::vector<uint32_t>& byte_of_codepoint_;
  size_t size_;       // in code points
  bool ascii_;        // a code point is a byte
  size_t first_ = 0;  // 1 after a byte order mark
  size_t position_ = 0;
};

}  // namespace flowc::parse

#endif  // FLOWC_PARSE_FAST_INPUT_H_
