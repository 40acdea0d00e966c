// `flowc lsp`: the language server over stdin and stdout, the one entry point the driver
// calls (compiler/driver/driver.cc). See server.h for what it answers.
#ifndef FLOWC_LSP_LSP_H_
#define FLOWC_LSP_LSP_H_

namespace flowc::lsp {

// Serves one client on `in_fd` and `out_fd` until `exit` or the end of input. Returns the
// exit status: 0 after shutdown and exit, 1 otherwise.
int RunLanguageServer(int in_fd, int out_fd);

}  // namespace flowc::lsp

#endif  // FLOWC_LSP_LSP_H_
