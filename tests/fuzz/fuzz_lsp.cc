// libFuzzer target: arbitrary bytes as the stream a client writes to `flowc lsp`.
//
// The bytes go through the message reader in pieces (the first byte chooses their size, so
// that headers and bodies split anywhere), and every body it yields through the server's
// dispatch, which is initialized first so that requests reach the features. Each reply is
// framed as the server would write it. Run by tests/fuzz/run_fuzz.sh; the seeds in
// tests/fuzz/lsp_corpus are whole sessions (open a sample, then ask for everything).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "compiler/lsp/jsonrpc.h"
#include "compiler/lsp/server.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t piece = 1 + data[0] % 64;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  size_t written = 0;
  flowc::lsp::Server server(
      [&written](const nlohmann::json& message) { written += flowc::lsp::Frame(message).size(); });
  server.Handle({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"}, {"params", {}}});
  flowc::lsp::FrameReader reader;
  while (!bytes.empty() && !server.exited()) {
    reader.Feed(bytes.substr(0, piece));
    bytes.remove_prefix(std::min(piece, bytes.size()));
    while (std::optional<std::string> body = reader.Next()) {
      server.HandleBody(*body);
      if (server.exited()) break;
    }
  }
  server.PublishStale();
  return 0;
}
