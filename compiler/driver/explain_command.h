// `flowc explain CODE` and `flowc docs [-o DIR] [--check]`: the driver's side of
// compiler/explain, which it gives the stages to run each example through.
#ifndef FLOWC_DRIVER_EXPLAIN_COMMAND_H_
#define FLOWC_DRIVER_EXPLAIN_COMMAND_H_

#include <CLI/CLI.hpp>
#include <string>

namespace flowc::driver {

struct ExplainOptions {
  std::string code;
  std::string docs_dir = "docs";
  bool check = false;
};

// Adds the two commands to `app`; `docs` is hidden from --help (a maintainer's command, named
// in tests/update_goldens.sh and at the top of each page it writes).
CLI::App* AddExplainCommand(CLI::App& app, ExplainOptions& options);
CLI::App* AddDocsCommand(CLI::App& app, ExplainOptions& options);

int RunExplainCommand(const ExplainOptions& options);
// Writes docs/decorators.md and docs/diagnostics.md into the folder; with --check compares
// instead, printing a diff and exiting 1 when a page differs.
int RunDocsCommand(const ExplainOptions& options);

}  // namespace flowc::driver

#endif  // FLOWC_DRIVER_EXPLAIN_COMMAND_H_
