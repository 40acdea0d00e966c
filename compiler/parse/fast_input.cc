#include "compiler/parse/fast_input.h"

#include <algorithm>
#include <array>

#include "compiler/diag/source.h"

namespace flowc::parse {

Utf8Stream::Utf8Stream(std::string_view text, const std::vector<uint32_t>& byte_of_codepoint)
    : text_(text),
      byte_of_codepoint_(byte_of_codepoint),
      size_(byte_of_codepoint.empty() ? text.size() : byte_of_codepoint.size() - 1),
      ascii_(byte_of_codepoint.empty()) {
  if (text_.substr(0, diag::kByteOrderMark.size()) == diag::kByteOrderMark) first_ = position_ = 1;
}

size_t Utf8Stream::CodePointAt(size_t index) const {
  size_t begin = ByteOf(index);
  auto byte = static_cast<unsigned char>(text_[begin]);
  if (byte < 0x80) return byte;
  size_t end = ByteOf(index + 1);
  return antlrcpp::utf8_to_utf32(text_.data() + begin, text_.data() + end).at(0);
}

void Utf8Stream::consume() {
  if (position_ >= size_) throw antlr4::IllegalStateException("cannot consume EOF");
  ++position_;
}

size_t Utf8Stream::LA(ssize_t i) {
  if (i == 0) return 0;  // undefined
  // LA(-1) is the character before the current one, LA(1) the current one.
  auto at = static_cast<ssize_t>(position_) + (i < 0 ? i : i - 1);
  if (at < static_cast<ssize_t>(first_) || at >= static_cast<ssize_t>(size_)) {
    return antlr4::IntStream::EOF;
  }
  auto index = static_cast<size_t>(at);
  if (ascii_) return static_cast<unsigned char>(text_[index]);
  return CodePointAt(index);
}

void Utf8Stream::seek(size_t index) {
  position_ = std::clamp(index, first_, size_);
}

std::string Utf8Stream::getText(const antlr4::misc::Interval& interval) {
  if (interval.a < 0 || interval.b < 0) return "";
  auto start = std::max(static_cast<size_t>(interval.a), first_);
  size_t stop = std::min(static_cast<size_t>(interval.b), size_ - 1);
  if (start >= size_ || stop < start) return "";
  size_t begin = ByteOf(start);
  return std::string(text_.substr(begin, ByteOf(stop + 1) - begin));
}

std::string Utf8Stream::toString() const {
  return std::string(text_.substr(ByteOf(first_)));
}

}  // namespace flowc::parse
