// The language server: the LSP 3.17 life cycle, the open documents, and the dispatch of each
// request to its feature (features.h).
//
// It reads parsed messages and writes through a callback, so that the stdio loop (lsp.h),
// the unit tests and the fuzzer drive the same object. Nothing a client sends makes it throw
// or stop answering: a body that is not JSON gets -32700, a request before `initialize`
// -32002, an unknown method -32601, malformed params -32602; unknown notifications are
// ignored.
#ifndef FLOWC_LSP_SERVER_H_
#define FLOWC_LSP_SERVER_H_

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "compiler/lsp/documents.h"

namespace flowc::lsp {

struct Snapshot;  // features.h

class Server {
 public:
  using Send = std::function<void(const nlohmann::json&)>;
  explicit Server(Send send) : send_(std::move(send)) {}

  // One message as it came off the wire.
  void HandleBody(std::string_view body);
  void Handle(const nlohmann::json& message);
  // Analyses every document changed since its diagnostics were sent, and sends them: called
  // when no message is waiting, so that a burst of changes costs one analysis.
  void PublishStale();

  bool exited() const { return exit_status_.has_value(); }
  // 0 after `shutdown` then `exit`; 1 for an `exit` (or the end of input) without shutdown.
  int exit_status() const { return exit_status_.value_or(shut_down_ ? 0 : 1); }
  DocumentStore& documents() { return documents_; }

 private:
  struct Reply {
    Reply(nlohmann::json result = nullptr) : result(std::move(result)) {}  // NOLINT: a result
    Reply(int error, std::string message) : error(error), message(std::move(message)) {}

    nlohmann::json result;
    int error = 0;  // an ErrorCode, 0 for none
    std::string message;
  };
  using Request = Reply (Server::*)(const nlohmann::json& params);
  using Notification = void (Server::*)(const nlohmann::json& params);

  void Respond(const nlohmann::json& id, const Reply& reply);
  void Error(const nlohmann::json& id, int code, const std::string& message);
  // The open document a request names, analysed and with its diagnostics sent; or nullptr.
  Document* Analysed(const nlohmann::json& params);
  // The document and byte offset of a TextDocumentPositionParams.
  Document* At(const nlohmann::json& params, size_t* offset);
  void Publish(Document& document);
  // Answers a TextDocumentPositionParams request with `feature` at its place; a feature that
  // refuses (sets its error) gets -32803 with the reason.
  using PositionFeature =
      std::function<nlohmann::json(const Snapshot&, size_t offset, std::string* error)>;
  Reply AtPosition(const nlohmann::json& params, const PositionFeature& feature);

  Reply Initialize(const nlohmann::json& params);
  Reply Shutdown(const nlohmann::json& params);
  Reply HoverRequest(const nlohmann::json& params);
  Reply DefinitionRequest(const nlohmann::json& params);
  Reply ReferencesRequest(const nlohmann::json& params);
  Reply DocumentSymbolRequest(const nlohmann::json& params);
  Reply CompletionRequest(const nlohmann::json& params);
  Reply PrepareRenameRequest(const nlohmann::json& params);
  Reply RenameRequest(const nlohmann::json& params);
  Reply CodeActionRequest(const nlohmann::json& params);
  Reply FormattingRequest(const nlohmann::json& params);
  void DidOpen(const nlohmann::json& params);
  void DidChange(const nlohmann::json& params);
  void DidSave(const nlohmann::json& params);
  void DidClose(const nlohmann::json& params);

  static const std::map<std::string_view, Request>& Requests();
  static const std::map<std::string_view, Notification>& Notifications();

  Send send_;
  DocumentStore documents_;
  bool initialized_ = false;
  bool shut_down_ = false;
  std::optional<int> exit_status_;
};

}  // namespace flowc::lsp

#endif  // FLOWC_LSP_SERVER_H_
