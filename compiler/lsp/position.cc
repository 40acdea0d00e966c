#include "compiler/lsp/position.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

namespace flowc::lsp {
namespace {

// Bytes in the UTF-8 sequence that `lead` starts; a stray byte counts as one character.
size_t SequenceLength(unsigned char lead) {
  if (lead >= 0xF0 && lead <= 0xF7) return 4;
  if (lead >= 0xE0) return lead <= 0xEF ? 3 : 1;
  if (lead >= 0xC0) return 2;
  return 1;
}

// UTF-16 code units of the character a sequence of `bytes` bytes encodes.
uint32_t Utf16Units(size_t bytes) { return bytes == 4 ? 2 : 1; }

}  // namespace

LineIndex::LineIndex(std::string_view text) : text_(text) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts_.push_back(i + 1);
  }
}

size_t LineIndex::LineEnd(size_t line) const {
  size_t end = line + 1 < starts_.size() ? starts_[line + 1] - 1 : text_.size();
  if (end > starts_[line] && end < text_.size() && text_[end - 1] == '\r') --end;
  return end;
}

Position LineIndex::PositionOf(size_t offset) const {
  offset = std::min(offset, text_.size());
  size_t line = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), offset) -
                                    starts_.begin()) -
                1;
  size_t end = std::min(offset, LineEnd(line));
  uint32_t units = 0;
  for (size_t i = starts_[line]; i < end;) {
    size_t n = SequenceLength(static_cast<unsigned char>(text_[i]));
    if (i + n > end) break;  // an offset inside a character: its start
    units += Utf16Units(n);
    i += n;
  }
  if (offset > LineEnd(line)) ++units;  // the "\r" of a "\r\n"
  return Position{static_cast<uint32_t>(line), units};
}

size_t LineIndex::OffsetOf(Position position) const {
  if (position.line >= starts_.size()) return text_.size();
  size_t end = LineEnd(position.line);
  size_t i = starts_[position.line];
  uint32_t units = 0;
  while (i < end) {
    size_t n = std::min(SequenceLength(static_cast<unsigned char>(text_[i])), end - i);
    uint32_t u = Utf16Units(n);
    if (units + u > position.character) break;
    units += u;
    i += n;
  }
  return i;
}

nlohmann::json LineIndex::Range(size_t offset, size_t length) const {
  return {{"start", ToJson(PositionOf(offset))}, {"end", ToJson(PositionOf(offset + length))}};
}

bool LineIndex::OffsetsOf(const nlohmann::json& range, size_t* begin, size_t* end) const {
  Position start, stop;
  if (!range.is_object() || !FromJson(range.value("start", nlohmann::json()), &start) ||
      !FromJson(range.value("end", nlohmann::json()), &stop)) {
    return false;
  }
  *begin = OffsetOf(start);
  *end = std::max(*begin, OffsetOf(stop));
  return true;
}

nlohmann::json ToJson(Position position) {
  return {{"line", position.line}, {"character", position.character}};
}

bool FromJson(const nlohmann::json& value, Position* position) {
  if (!value.is_object()) return false;
  auto field = [&](const char* name, uint32_t* out) {
    auto it = value.find(name);
    if (it == value.end() || !it->is_number_integer()) return false;
    // A negative number or one past uint32 is clamped, not wrapped.
    int64_t n = it->is_number_unsigned()
                    ? static_cast<int64_t>(std::min<uint64_t>(it->get<uint64_t>(), UINT32_MAX))
                    : it->get<int64_t>();
    *out = static_cast<uint32_t>(std::clamp<int64_t>(n, 0, UINT32_MAX));
    return true;
  };
  return field("line", &position->line) && field("character", &position->character);
}

}  // namespace flowc::lsp
