// `flowc fmt`: rewrites flows in their canonical layout (compiler/format/format.h), or with
// --check/--diff says which would change. driver.cc registers the subcommand and calls RunFmt
// when it was given.
#ifndef FLOWC_DRIVER_FMT_COMMAND_H_
#define FLOWC_DRIVER_FMT_COMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace flowc::driver {

struct FmtOptions {
  std::vector<std::string> inputs;  // "-": stdin, formatted to stdout
  bool check = false;               // write nothing; name each file that would change
  bool diff = false;                // write nothing; print a unified diff of each change
  std::string diagnostics_format = "text";
};

// Adds the `fmt` subcommand to `app`, filling `options`.
CLI::App* AddFmtCommand(CLI::App& app, FmtOptions& options);

// Formats every input; returns the worst exit status (docs/cli.md, "Exit status").
int RunFmt(const FmtOptions& options);

}  // namespace flowc::driver

#endif  // FLOWC_DRIVER_FMT_COMMAND_H_
