#include "compiler/lsp/server.h"

#include "compiler/lsp/features.h"
#include "compiler/lsp/jsonrpc.h"

#ifndef FLOWC_VERSION
#define FLOWC_VERSION "dev"
#endif

namespace flowc::lsp {
namespace {

using nlohmann::json;

const json& Field(const json& object, const char* name) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(name);
  return it == object.end() ? kNull : *it;
}

std::string UriOf(const json& params) {
  const json& uri = Field(Field(params, "textDocument"), "uri");
  return uri.is_string() ? uri.get<std::string>() : "";
}

json Capabilities() {
  return {
      {"positionEncoding", "utf-16"},
      {"textDocumentSync",
       {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"documentSymbolProvider", true},
      {"completionProvider", {{"triggerCharacters", {"@", "{", "(", ",", " "}}}},
      {"renameProvider", {{"prepareProvider", true}}},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
      {"documentFormattingProvider", true},
  };
}

}  // namespace

const std::map<std::string_view, Server::Request>& Server::Requests() {
  static const std::map<std::string_view, Request> requests = {
      {"initialize", &Server::Initialize},
      {"shutdown", &Server::Shutdown},
      {"textDocument/hover", &Server::HoverRequest},
      {"textDocument/definition", &Server::DefinitionRequest},
      {"textDocument/references", &Server::ReferencesRequest},
      {"textDocument/documentSymbol", &Server::DocumentSymbolRequest},
      {"textDocument/completion", &Server::CompletionRequest},
      {"textDocument/prepareRename", &Server::PrepareRenameRequest},
      {"textDocument/rename", &Server::RenameRequest},
      {"textDocument/codeAction", &Server::CodeActionRequest},
      {"textDocument/formatting", &Server::FormattingRequest},
  };
  return requests;
}

const std::map<std::string_view, Server::Notification>& Server::Notifications() {
  static const std::map<std::string_view, Notification> notifications = {
      {"textDocument/didOpen", &Server::DidOpen},
      {"textDocument/didChange", &Server::DidChange},
      {"textDocument/didSave", &Server::DidSave},
      {"textDocument/didClose", &Server::DidClose},
  };
  return notifications;
}

void Server::HandleBody(std::string_view body) {
  json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    Error(nullptr, kParseError, "the message is not JSON");
    return;
  }
  Handle(message);
}

void Server::Handle(const json& message) {
  const json& id = Field(message, "id");
  bool has_id = message.is_object() && message.contains("id");
  if (has_id && !id.is_string() && !id.is_number_integer()) {
    Error(nullptr, kInvalidRequest, "a request's id is a number or a string");
    return;
  }
  const json& method_json = Field(message, "method");
  if (!method_json.is_string()) {
    // A response to a request of ours (the server sends none) is not an error.
    if (has_id && (message.contains("result") || message.contains("error"))) return;
    Error(has_id ? id : json(nullptr), kInvalidRequest, "a message needs a method");
    return;
  }
  const std::string& method = method_json.get_ref<const std::string&>();
  const json& params = Field(message, "params");
  if (method == "exit") {
    exit_status_ = shut_down_ ? 0 : 1;
    return;
  }
  if (!has_id) {
    auto it = Notifications().find(method);
    if (it == Notifications().end() || !initialized_ || shut_down_) return;
    try {
      (this->*it->second)(params);
    } catch (const json::exception&) {
      // Malformed params of a notification: there is no one to answer.
    }
    return;
  }
  if (!initialized_ && method != "initialize") {
    Error(id, kServerNotInitialized, "the server is not initialized: send 'initialize' first");
    return;
  }
  if (shut_down_) {
    Error(id, kInvalidRequest, "the server is shut down: only 'exit' is left");
    return;
  }
  auto it = Requests().find(method);
  if (it == Requests().end()) {
    Error(id, kMethodNotFound, "unknown method '" + method + "'");
    return;
  }
  Reply reply;
  try {
    reply = (this->*it->second)(params);
  } catch (const json::exception& e) {
    reply = Reply(kInvalidParams, std::string("invalid params: ") + e.what());
  }
  Respond(id, reply);
}

void Server::Respond(const json& id, const Reply& reply) {
  if (reply.error != 0) {
    Error(id, reply.error, reply.message);
    return;
  }
  send_({{"jsonrpc", "2.0"}, {"id", id}, {"result", reply.result}});
}

void Server::Error(const json& id, int code, const std::string& message) {
  send_({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

void Server::Publish(Document& document) {
  documents_.Refresh(document);
  if (document.published) return;
  document.published = true;
  send_({{"jsonrpc", "2.0"},
         {"method", "textDocument/publishDiagnostics"},
         {"params", PublishDiagnostics(document)}});
}

void Server::PublishStale() {
  for (auto& [uri, document] : documents_.all()) Publish(document);
}

Document* Server::Analysed(const json& params) {
  Document* document = documents_.Find(UriOf(params));
  if (document != nullptr) Publish(*document);
  return document;
}

Document* Server::At(const json& params, size_t* offset) {
  Document* document = Analysed(params);
  Position position;
  if (document == nullptr || !FromJson(Field(params, "position"), &position)) return nullptr;
  *offset = LineIndex(document->text).OffsetOf(position);
  return document;
}

Server::Reply Server::Initialize(const json&) {
  if (initialized_) return Reply(kInvalidRequest, "the server is initialized already");
  initialized_ = true;
  return Reply(json{{"capabilities", Capabilities()},
                    {"serverInfo", {{"name", "flowc"}, {"version", FLOWC_VERSION}}}});
}

Server::Reply Server::Shutdown(const json&) {
  shut_down_ = true;
  return Reply(nullptr);
}

Server::Reply Server::AtPosition(const json& params, const PositionFeature& feature) {
  size_t offset;
  Document* document = At(params, &offset);
  if (document == nullptr) return Reply(nullptr);
  std::string error;
  json result = feature(Snapshot(*document), offset, &error);
  if (!error.empty()) return Reply(kRequestFailed, error);
  return Reply(std::move(result));
}

Server::Reply Server::HoverRequest(const json& params) {
  return AtPosition(params,
                    [](const Snapshot& s, size_t at, std::string*) { return Hover(s, at); });
}

Server::Reply Server::DefinitionRequest(const json& params) {
  return AtPosition(params,
                    [](const Snapshot& s, size_t at, std::string*) { return Definition(s, at); });
}

Server::Reply Server::ReferencesRequest(const json& params) {
  const json& include = Field(Field(params, "context"), "includeDeclaration");
  bool declaration = include.is_boolean() && include.get<bool>();
  return AtPosition(params, [declaration](const Snapshot& s, size_t at, std::string*) {
    return References(s, at, declaration);
  });
}

Server::Reply Server::DocumentSymbolRequest(const json& params) {
  Document* document = Analysed(params);
  return Reply(document ? DocumentSymbols(Snapshot(*document)) : json(nullptr));
}

Server::Reply Server::CompletionRequest(const json& params) {
  return AtPosition(params,
                    [](const Snapshot& s, size_t at, std::string*) { return Completion(s, at); });
}

Server::Reply Server::PrepareRenameRequest(const json& params) {
  return AtPosition(params, PrepareRename);
}

Server::Reply Server::RenameRequest(const json& params) {
  const json& name = Field(params, "newName");
  if (!name.is_string()) return Reply(kInvalidParams, "rename needs a newName string");
  std::string new_name = name.get<std::string>();
  return AtPosition(params, [&new_name](const Snapshot& s, size_t at, std::string* error) {
    return Rename(s, at, new_name, error);
  });
}

Server::Reply Server::CodeActionRequest(const json& params) {
  Document* document = Analysed(params);
  if (document == nullptr) return Reply(nullptr);
  size_t begin = 0, end = document->text.size();
  LineIndex(document->text).OffsetsOf(Field(params, "range"), &begin, &end);
  return Reply(CodeActions(Snapshot(*document), begin, end));
}

Server::Reply Server::FormattingRequest(const json& params) {
  Document* document = Analysed(params);
  return Reply(document ? Formatting(Snapshot(*document)) : json(nullptr));
}

void Server::DidOpen(const json& params) {
  const json& item = Field(params, "textDocument");
  const json& uri = Field(item, "uri");
  const json& text = Field(item, "text");
  const json& version = Field(item, "version");
  if (!uri.is_string() || !text.is_string()) return;
  documents_.Open(uri.get<std::string>(), text.get<std::string>(),
                  version.is_number_integer() ? version.get<int64_t>() : 0);
}

void Server::DidChange(const json& params) {
  Document* document = documents_.Find(UriOf(params));
  if (document == nullptr) return;
  const json& version = Field(Field(params, "textDocument"), "version");
  documents_.Change(*document, Field(params, "contentChanges"),
                    version.is_number_integer() ? version.get<int64_t>() : document->version);
}

void Server::DidSave(const json& params) {
  // The files @code reads may have changed with it: analyse again.
  if (Document* document = documents_.Find(UriOf(params))) {
    document->current.reset();
    document->published = false;
  }
}

void Server::DidClose(const json& params) {
  std::string uri = UriOf(params);
  if (documents_.Find(uri) == nullptr) return;
  documents_.Close(uri);
  send_({{"jsonrpc", "2.0"},
         {"method", "textDocument/publishDiagnostics"},
         {"params", {{"uri", uri}, {"diagnostics", json::array()}}}});
}

}  // namespace flowc::lsp
