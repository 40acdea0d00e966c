#include "compiler/driver/explain_command.h"

#include <fmt/format.h>

#include <iostream>

#include "compiler/driver/diagnostic_printer.h"
#include "compiler/driver/driver.h"
#include "compiler/driver/files.h"
#include "compiler/driver/spool.h"
#include "compiler/driver/validate_command.h"
#include "compiler/explain/explain.h"

namespace flowc::driver {
namespace {

// An example goes through the same stages as a user's flow: Analyze for `check`, Compile for
// `compile --target`, and `validate`'s own path for a YAML example.
void RunStages(const diag::SourceFile& file, const explain::Invocation& how,
               diag::Diagnostics& diagnostics) {
  if (how.validate) {
    ValidateWithDefaults(file, diagnostics);
  } else if (how.target.empty()) {
    Analyze(file, diagnostics);
  } else {
    Compile(file, how.target, diagnostics);
  }
}

}  // namespace

CLI::App* AddExplainCommand(CLI::App& app, ExplainOptions& options) {
  CLI::App* explain = app.add_subcommand(
      "explain", "Explain a diagnostic code: what it means, an example, how to fix it");
  explain->add_option("code", options.code, "The code, e.g. E014 (or e014)")->required();
  return explain;
}

CLI::App* AddDocsCommand(CLI::App& app, ExplainOptions& options) {
  CLI::App* docs = app.add_subcommand("docs", "Write docs/decorators.md and docs/diagnostics.md");
  docs->group("");  // hidden: for maintainers
  docs->add_option("-o,--output", options.docs_dir, "The docs folder")->default_str("docs");
  docs->add_flag("--check", options.check,
                 "Compare with the pages in the folder instead; exit 1 with a diff if one differs");
  return docs;
}

int RunExplainCommand(const ExplainOptions& options) {
  return explain::RunExplain(options.code, RunStages, std::cout, std::cerr);
}

int RunDocsCommand(const ExplainOptions& options) {
  int status = kExitOk;
  for (const auto& [name, text] : explain::Pages(RunStages)) {
    std::string path = options.docs_dir + "/" + name;
    if (options.check) {
      std::string error;
      std::optional<std::string> existing = ReadInput(path, &error);
      std::string diff = UnifiedDiff(existing.value_or(""), text, existing ? path : "/dev/null",
                                     fmt::format("{} (flowc docs)", path));
      std::cout << diff;
      if (!diff.empty()) status = kExitDiagnostics;
      continue;
    }
    Spool spool(path);
    spool.Write(text);
    std::string error;
    if (!spool.Commit(&error)) return IoError(error);
  }
  return status;
}

}  // namespace flowc::driver
