// Positions as the Language Server Protocol counts them, and flowc's byte offsets.
//
// LSP positions are a 0-based line and a character offset in UTF-16 code units (the only
// encoding every client supports; the server announces `positionEncoding: "utf-16"`).
// Inside flowc a place in a file is a byte offset (diag::SourceRange), and columns count
// code points: this is the one place that converts between them, at the server's edge
// (DESIGN.md "Front doors"). Lines end at "\n"; a "\r" before it belongs to no line's
// characters, as for clients.
#ifndef FLOWC_LSP_POSITION_H_
#define FLOWC_LSP_POSITION_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string_view>
#include <vector>

namespace flowc::lsp {

struct Position {
  uint32_t line = 0;
  uint32_t character = 0;  // UTF-16 code units from the start of the line

  bool operator==(const Position& o) const { return line == o.line && character == o.character; }
};

// The lines of one text. Holds a view: the text must outlive it.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);

  // The position of byte `offset` (clamped to the text). An offset inside a character counts
  // as that character's start.
  Position PositionOf(size_t offset) const;
  // The byte offset of `position`. A line past the last is the end of the text; a character
  // past the line's end is the line's end; inside a surrogate pair, the character's start.
  size_t OffsetOf(Position position) const;

  // {"start": ..., "end": ...} of bytes [offset, offset + length).
  nlohmann::json Range(size_t offset, size_t length) const;
  // Bytes [begin, end) of an LSP range object; false when it is not one.
  bool OffsetsOf(const nlohmann::json& range, size_t* begin, size_t* end) const;

 private:
  // Where line `line`'s characters end: before its "\n", or "\r\n".
  size_t LineEnd(size_t line) const;

  std::string_view text_;
  std::vector<size_t> starts_;  // of each line
};

nlohmann::json ToJson(Position position);
// A position object of a request; false when `value` is not one.
bool FromJson(const nlohmann::json& value, Position* position);

}  // namespace flowc::lsp

#endif  // FLOWC_LSP_POSITION_H_
