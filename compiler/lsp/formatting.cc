#include "compiler/format/format.h"
#include "compiler/lsp/features.h"

namespace flowc::lsp {
namespace {

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

nlohmann::json Formatting(const Snapshot& snapshot) {
  nlohmann::json edits = nlohmann::json::array();
  diag::Diagnostics ignored;  // a syntax error: no edits, as `flowc fmt` writes nothing
  std::optional<std::string> formatted = format::Format(*snapshot.current.file, ignored);
  if (!formatted || *formatted == snapshot.text()) return edits;
  // One edit: what lies between the common prefix and suffix, with its ends moved out to whole
  // characters and never between a "\r" and its "\n", where no LSP position is.
  std::string_view text = snapshot.text();
  TextEdit diff = TextMap::Diff(text, *formatted);
  uint32_t begin = diff.begin, end = diff.end;
  while (begin > 0 &&
         ((begin < text.size() && IsContinuation(text[begin])) || text[begin - 1] == '\r')) {
    --begin;
  }
  while (end < text.size() && (IsContinuation(text[end]) || (end > 0 && text[end - 1] == '\r')))
    ++end;
  size_t tail = text.size() - end;  // the suffix kept
  std::string inserted = formatted->substr(begin, formatted->size() - tail - begin);
  edits.push_back({{"range", snapshot.lines.Range(begin, end - begin)}, {"newText", inserted}});
  return edits;
}

}  // namespace flowc::lsp
