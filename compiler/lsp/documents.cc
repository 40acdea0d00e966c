#include "compiler/lsp/documents.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "compiler/lsp/position.h"

namespace flowc::lsp {
namespace {

// Edits kept before they are merged into one (which loses what lies between them).
constexpr size_t kMaxEdits = 256;

}  // namespace

TextEdit TextMap::Diff(std::string_view from, std::string_view to) {
  size_t shorter = std::min(from.size(), to.size());
  size_t prefix = 0;
  while (prefix < shorter && from[prefix] == to[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < shorter - prefix &&
         from[from.size() - 1 - suffix] == to[to.size() - 1 - suffix]) {
    ++suffix;
  }
  return TextEdit{static_cast<uint32_t>(prefix), static_cast<uint32_t>(from.size() - suffix),
                  static_cast<uint32_t>(to.size() - suffix - prefix)};
}

std::optional<Span> TextMap::Map(Span span) const {
  for (const TextEdit& e : edits_) {
    if (span.end() < e.begin) continue;
    if (span.offset <= e.end) return std::nullopt;
    span.offset = span.offset - e.end + e.begin + e.inserted;
  }
  return span;
}

std::optional<uint32_t> TextMap::Unmap(uint32_t offset) const {
  for (auto e = edits_.rbegin(); e != edits_.rend(); ++e) {
    if (offset <= e->begin) continue;
    if (offset < e->begin + e->inserted) return std::nullopt;
    offset = offset - e->begin - e->inserted + e->end;
  }
  return offset;
}

Document::View Document::OutlineView() const {
  View view;
  const Analysis* source = current && current->parsed ? current.get() : parsed.get();
  if (source == nullptr) return view;
  view.analysis = source;
  if (source != current.get()) view.map = TextMap(edits);
  return view;
}

Document& DocumentStore::Open(const std::string& uri, std::string text, int64_t version) {
  Document& document = documents_[uri];
  document = Document{};
  document.uri = uri;
  document.path = PathOfUri(uri);
  document.text = std::move(text);
  document.version = version;
  return document;
}

bool DocumentStore::Change(Document& document, const nlohmann::json& changes, int64_t version) {
  document.version = version;
  document.current.reset();
  document.published = false;
  if (!changes.is_array()) return false;
  if (!document.parsed) document.edits.clear();  // nothing to move positions of
  if (document.edits.size() >= kMaxEdits && document.parsed) {
    // A long time without a parse: one edit for them all keeps the list small.
    document.edits = {TextMap::Diff(document.parsed->text(), document.text)};
  }
  for (const nlohmann::json& change : changes) {
    if (!change.is_object()) return false;
    auto text = change.find("text");
    if (text == change.end() || !text->is_string()) return false;
    auto range = change.find("range");
    const std::string& inserted = text->get_ref<const std::string&>();
    if (range == change.end()) {
      document.edits.push_back(TextMap::Diff(document.text, inserted));
      document.text = inserted;
      continue;
    }
    size_t begin, end;
    if (!LineIndex(document.text).OffsetsOf(*range, &begin, &end)) return false;
    document.edits.push_back(TextEdit{static_cast<uint32_t>(begin), static_cast<uint32_t>(end),
                                      static_cast<uint32_t>(inserted.size())});
    document.text.replace(begin, end - begin, inserted);
  }
  return true;
}

void DocumentStore::Close(const std::string& uri) { documents_.erase(uri); }

Document* DocumentStore::Find(const std::string& uri) {
  auto it = documents_.find(uri);
  return it == documents_.end() ? nullptr : &it->second;
}

bool DocumentStore::Refresh(Document& document) {
  if (document.current) return false;
  document.current = Analyze(document.path, document.text);
  if (document.current->parsed) {
    document.parsed = document.current;
    document.edits.clear();
  }
  if (document.current->ir) document.lowered = document.current;
  return true;
}

std::string PathOfUri(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (uri.substr(0, kScheme.size()) != kScheme) return std::string(uri);
  std::string_view rest = uri.substr(kScheme.size());
  rest = rest.substr(std::min(rest.find('/'), rest.size()));  // an authority, if any
  std::string path;
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && hex(rest[i + 1]) >= 0 && hex(rest[i + 2]) >= 0) {
      path += static_cast<char>(hex(rest[i + 1]) * 16 + hex(rest[i + 2]));
      i += 2;
    } else {
      path += rest[i];
    }
  }
  return path;
}

}  // namespace flowc::lsp
