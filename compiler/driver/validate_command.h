// `flowc validate`: checks YAML streams as a cluster would before accepting them
// (compiler/validate/validate.h). driver.cc registers the subcommand and calls RunValidate when
// it was given.
#ifndef FLOWC_DRIVER_VALIDATE_COMMAND_H_
#define FLOWC_DRIVER_VALIDATE_COMMAND_H_

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "compiler/diag/diagnostics.h"

namespace flowc::driver {

struct ValidateOptions {
  std::vector<std::string> inputs;       // "-": stdin
  std::string argo_version = "4.1";      // which bundled Argo CRDs serve argoproj.io
  // The bundled version of the other families to check against; "": the newest release.
  std::string kubernetes_version, jobset_version, kueue_version, trainer_version;
  bool list = false;  // --list: print the bundled families, versions and kinds
  std::vector<std::string> schema_dirs;  // --schemas: CRDs adding or replacing bundled kinds
  bool allow_unknown_kinds = false;
  std::string format = "text";  // how diagnostics are printed: text or sarif
};

// Adds the `validate` subcommand to `app`, filling `options`.
CLI::App* AddValidateCommand(CLI::App& app, ValidateOptions& options);

// Validates every input (or, with --list, prints what is bundled); prints the diagnostics on stderr and "N passed, M failed" on stdout.
// Returns 0 when every document is valid, 1 otherwise, 2 for a --schemas directory that cannot
// be used.
int RunValidate(const ValidateOptions& options);

// Validates `file` as `flowc validate FILE` does with no option, reporting into `diagnostics`:
// `flowc explain` runs its YAML examples through it.
void ValidateWithDefaults(const diag::SourceFile& file, diag::Diagnostics& diagnostics);

}  // namespace flowc::driver

#endif  // FLOWC_DRIVER_VALIDATE_COMMAND_H_
