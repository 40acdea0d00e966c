#include "compiler/lsp/jsonrpc.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

namespace flowc::lsp {
namespace {

constexpr std::string_view kHeaderEnd = "\r\n\r\n";
constexpr std::string_view kContentLength = "content-length";

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The Content-Length of a header block (its lines without the blank line), or nullopt when a
// line is not "Name: value" or the length is missing, repeated or not a decimal number.
std::optional<size_t> ContentLength(std::string_view header) {
  std::optional<size_t> length;
  while (!header.empty()) {
    size_t eol = header.find("\r\n");
    std::string_view line = header.substr(0, eol);
    header = eol == std::string_view::npos ? std::string_view() : header.substr(eol + 2);
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return std::nullopt;
    if (!EqualsIgnoringCase(Trim(line.substr(0, colon)), kContentLength)) continue;
    std::string_view digits = Trim(line.substr(colon + 1));
    if (length || digits.empty() || digits.size() > 12) return std::nullopt;
    size_t value = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
      value = value * 10 + static_cast<size_t>(c - '0');
    }
    length = value;
  }
  return length;
}

// Where "Content-Length" (any case) starts in `text` at or after `from`, or npos.
size_t FindContentLength(std::string_view text, size_t from) {
  for (size_t i = from; i + kContentLength.size() <= text.size(); ++i) {
    if (EqualsIgnoringCase(text.substr(i, kContentLength.size()), kContentLength)) return i;
  }
  return std::string_view::npos;
}

}  // namespace

void FrameReader::Feed(std::string_view bytes) {
  if (discard_ > 0) {
    size_t n = std::min(discard_, bytes.size());
    discard_ -= n;
    bytes.remove_prefix(n);
  }
  buffer_.append(bytes);
}

void FrameReader::Compact() {
  if (pos_ == 0) return;
  buffer_.erase(0, pos_);
  pos_ = 0;
}

void FrameReader::SkipHeader(size_t end) {
  ++skipped_;
  size_t next = FindContentLength(buffer_, pos_ + 1);
  pos_ = next < end ? next : end;
}

std::optional<std::string> FrameReader::Next() {
  while (pos_ < buffer_.size()) {
    std::string_view unread = std::string_view(buffer_).substr(pos_);
    size_t end = unread.find(kHeaderEnd);
    if (end == std::string_view::npos) {
      if (unread.size() <= kMaxHeader) break;
      // No header is this long: drop it, keeping what may start the next one.
      ++skipped_;
      size_t next = FindContentLength(buffer_, pos_ + 1);
      pos_ = next != std::string::npos ? next : buffer_.size() - (kHeaderEnd.size() - 1);
      continue;
    }
    std::optional<size_t> length = ContentLength(unread.substr(0, end));
    if (!length) {
      SkipHeader(pos_ + end + kHeaderEnd.size());
      continue;
    }
    size_t body = pos_ + end + kHeaderEnd.size();
    if (*length > kMaxBody) {
      ++skipped_;
      size_t have = std::min(*length, buffer_.size() - body);
      discard_ = *length - have;
      pos_ = body + have;
      continue;
    }
    if (buffer_.size() - body < *length) break;
    std::string message = buffer_.substr(body, *length);
    pos_ = body + *length;
    Compact();
    return message;
  }
  Compact();
  return std::nullopt;
}

std::string Frame(const nlohmann::json& message) {
  std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out += body;
  return out;
}

}  // namespace flowc::lsp
