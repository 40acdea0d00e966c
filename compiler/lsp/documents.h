// The open documents: their current text and version, and their analyses.
//
// didOpen, didChange (incremental or whole) and didClose land here (server.cc). A change
// only marks the document stale; it is analysed when the server has nothing else to read, or
// when a request needs it (Refresh), so that a burst of keystrokes costs one analysis.
//
// A document keeps three analyses: of its current text, of the latest text that parsed, and
// of the latest that lowered to IR. While someone types the text rarely parses; the features
// answer from the latest outline that did, through a TextMap that moves its positions into
// the current text and drops the ones the edits touched (never a wrong position).
#ifndef FLOWC_LSP_DOCUMENTS_H_
#define FLOWC_LSP_DOCUMENTS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/lsp/analysis.h"

namespace flowc::lsp {

// One change of a text: bytes [begin, end) became `inserted` bytes.
struct TextEdit {
  uint32_t begin = 0;
  uint32_t end = 0;
  uint32_t inserted = 0;
};

// Moves offsets of an old text into the text its edits made of it. What no edit touched, with
// one unchanged byte either side (so that a name is not taken for a longer one typed onto
// it), moves with the edits before it; anything an edit touched has no place.
class TextMap {
 public:
  TextMap() = default;  // the identity
  explicit TextMap(std::vector<TextEdit> edits) : edits_(std::move(edits)) {}
  // The edit that turns `from` into `to`: what lies between their common prefix and suffix.
  static TextEdit Diff(std::string_view from, std::string_view to);

  std::optional<Span> Map(Span span) const;
  // Where offset `offset` of the new text was in the old, if no edit made it.
  std::optional<uint32_t> Unmap(uint32_t offset) const;

 private:
  std::vector<TextEdit> edits_;  // in the order they were made
};

struct Document {
  std::string uri;
  std::string path;  // for @code, as `flowc compile PATH` reads it
  std::string text;
  int64_t version = 0;
  std::shared_ptr<const Analysis> current;  // of `text`; null while stale
  std::shared_ptr<const Analysis> parsed;   // the latest whose text parsed
  std::shared_ptr<const Analysis> lowered;  // the latest with an IR
  std::vector<TextEdit> edits;              // what made `text` of `parsed`'s text
  bool published = false;                   // whether `current`'s diagnostics were sent

  // The outline to answer from, and how to move its spans into `text`: the current one, or
  // the latest that parsed. Null `analysis` when no version ever parsed.
  struct View {
    const Analysis* analysis = nullptr;
    TextMap map;
    std::optional<Span> Map(Span span) const { return map.Map(span); }
  };
  View OutlineView() const;
};

class DocumentStore {
 public:
  Document& Open(const std::string& uri, std::string text, int64_t version);
  // Applies `changes` (LSP TextDocumentContentChangeEvent[]); false when one is malformed
  // (the ones before it stay applied, as the client sent them).
  bool Change(Document& document, const nlohmann::json& changes, int64_t version);
  void Close(const std::string& uri);
  Document* Find(const std::string& uri);

  // Analyses `document` if its text changed since; returns whether it did.
  bool Refresh(Document& document);
  std::map<std::string, Document>& all() { return documents_; }

 private:
  std::map<std::string, Document> documents_;
};

// The file path of a `file://` URI (percent-escapes decoded); any other URI as it is.
std::string PathOfUri(std::string_view uri);

}  // namespace flowc::lsp

#endif  // FLOWC_LSP_DOCUMENTS_H_
