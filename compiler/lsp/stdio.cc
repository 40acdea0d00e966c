#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "compiler/lsp/jsonrpc.h"
#include "compiler/lsp/lsp.h"
#include "compiler/lsp/server.h"

namespace flowc::lsp {
namespace {

bool WriteAll(int fd, const std::string& bytes) {
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

// Whether bytes are waiting on `fd` (or it is at its end): more to read before idling.
bool InputWaiting(int fd) {
  pollfd p{fd, POLLIN, 0};
  return poll(&p, 1, 0) > 0;
}

}  // namespace

int RunLanguageServer(int in_fd, int out_fd) {
  // A client that goes away must end the server with a status, not a signal.
  signal(SIGPIPE, SIG_IGN);
  bool broken = false;
  Server server([&](const nlohmann::json& message) {
    if (!broken && !WriteAll(out_fd, Frame(message))) broken = true;
  });
  FrameReader reader;
  std::string buffer(1 << 16, '\0');
  while (!server.exited() && !broken) {
    while (std::optional<std::string> body = reader.Next()) {
      server.HandleBody(*body);
      if (server.exited()) break;
    }
    if (server.exited()) break;
    if (!InputWaiting(in_fd)) server.PublishStale();
    ssize_t n = read(in_fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    reader.Feed(std::string_view(buffer.data(), static_cast<size_t>(n)));
  }
  return broken ? 1 : server.exit_status();
}

}  // namespace flowc::lsp
