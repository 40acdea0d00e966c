// The wire format of the Language Server Protocol: JSON-RPC 2.0 messages, each framed as
// "Content-Length: N\r\n" (other header fields allowed and ignored), "\r\n", then N bytes of
// JSON.
//
// FrameReader cuts a byte stream into message bodies as the bytes arrive, in any pieces; the
// server's stdio loop (stdio.cc) and the fuzzer (tests/fuzz/fuzz_lsp.cc) feed it. It never
// fails: a header it cannot read is skipped up to the next "Content-Length", so one bad
// message costs only itself. Frame writes one message.
#ifndef FLOWC_LSP_JSONRPC_H_
#define FLOWC_LSP_JSONRPC_H_

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace flowc::lsp {

// JSON-RPC and LSP error codes (LSP 3.17, "Response Message").
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kRequestFailed = -32803,
};

class FrameReader {
 public:
  // A header longer than this is garbage (real ones are under 100 bytes).
  static constexpr size_t kMaxHeader = 4096;
  // A body longer than this is skipped: no document a person edits comes near it.
  static constexpr size_t kMaxBody = size_t{256} << 20;

  void Feed(std::string_view bytes);
  // The body of the next whole message, or nullopt until more bytes come. Skips what it
  // cannot read, counting it in skipped().
  std::optional<std::string> Next();
  // Whether bytes of an unfinished message are waiting.
  bool pending() const { return pos_ < buffer_.size(); }
  size_t skipped() const { return skipped_; }

 private:
  // Drops what was read, so that the buffer holds only what is not.
  void Compact();
  // Skips the header [pos_, end): from the next "Content-Length" inside it, or all of it.
  void SkipHeader(size_t end);

  std::string buffer_;
  size_t pos_ = 0;      // where the unread bytes start
  size_t discard_ = 0;  // bytes of a skipped oversized body still to come
  size_t skipped_ = 0;
};

// `message` framed for the wire. Strings that are not UTF-8 are written with U+FFFD in place
// of the bad bytes, never an exception.
std::string Frame(const nlohmann::json& message);

}  // namespace flowc::lsp

#endif  // FLOWC_LSP_JSONRPC_H_
