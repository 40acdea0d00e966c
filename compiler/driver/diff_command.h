// `flowc diff`: what a change to flows does to every step's pod (compiler/diff, docs/diff.md).
// driver.cc registers the subcommand and calls RunDiff when it was given; this file reads the
// two sides (two files, or a git revision and the working tree), runs the stages on each, and
// prints compiler/diff's report.
#ifndef FLOWC_DRIVER_DIFF_COMMAND_H_
#define FLOWC_DRIVER_DIFF_COMMAND_H_

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace flowc::driver {

struct DiffOptions {
  std::vector<std::string> args;  // OLD NEW, or with --git: [REV] [PATH...]
  bool git = false;
  std::vector<std::string> targets;  // --target: also compare what each renders
  std::string format = "text";       // text, markdown or json
  std::string diagnostics_format = "text";
};

CLI::App* AddDiffCommand(CLI::App& app, DiffOptions& options);

// Prints the report on stdout and the flows' diagnostics on stderr. Returns 0 when nothing
// differs, 1 when something does or a flow has errors, 2 on a usage error, 3 on an I/O error.
int RunDiff(const DiffOptions& options);

}  // namespace flowc::driver

#endif  // FLOWC_DRIVER_DIFF_COMMAND_H_
