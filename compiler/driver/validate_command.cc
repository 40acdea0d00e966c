#include "compiler/driver/validate_command.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "compiler/driver/diagnostic_printer.h"
#include "compiler/driver/driver.h"
#include "compiler/driver/files.h"
#include "compiler/validate/validate.h"

namespace flowc::driver {

CLI::App* AddValidateCommand(CLI::App& app, ValidateOptions& options) {
  CLI::App* validate = app.add_subcommand(
      "validate",
      "Check Kubernetes YAML (Argo, JobSet, Trainer, Kueue, DRA, core kinds) as a cluster would");
  validate->add_option("files", options.inputs, "YAML files ('-' reads stdin)")->required();
  validate
      ->add_option("--argo-version", options.argo_version,
                   "Argo Workflows CRDs to check argoproj.io kinds against")
      ->check(CLI::IsMember({"3.7", "4.1"}))
      ->default_str("4.1");
  validate->add_option("--schemas", options.schema_dirs,
                       "Directory of CRD YAML files (or `kubectl get crd -o yaml` output) that add "
                       "or replace bundled kinds; repeatable");
  validate->add_flag("--allow-unknown-kinds", options.allow_unknown_kinds,
                     "Pass documents whose apiVersion and kind have no schema");
  validate->add_option("--format", options.format, "How diagnostics are printed on stderr")
      ->check(CLI::IsMember({"text", "sarif"}))
      ->default_str("text");
  return validate;
}

namespace {

validate::Options CheckOptions(const ValidateOptions& options) {
  validate::Options out;
  out.allow_unknown_kinds = options.allow_unknown_kinds;
  return out;
}

}  // namespace

int RunValidate(const ValidateOptions& options) {
  DiagnosticPrinter printer(options.format, /*werror=*/false);
  // Kept until the exit, which main() takes without running static destructors: taking apart
  // the parsed schemas' many thousand nodes cost a fifth of a run (as FlowKeptUntilExit in
  // driver.cc). Still reachable, so the sanitizers' leak check does not count it.
  static std::unique_ptr<validate::SchemaStore> kept;
  kept = std::make_unique<validate::SchemaStore>(options.argo_version);
  validate::SchemaStore& store = *kept;
  // The --schemas files stay alive until the diagnostics that point into them are printed.
  std::vector<std::unique_ptr<diag::SourceFile>> schema_files;
  diag::Diagnostics schema_diagnostics;
  bool schemas_ok = true;
  for (const std::string& dir : options.schema_dirs) {
    schemas_ok &= store.AddDirectory(dir, schema_diagnostics, schema_files);
  }
  if (!schemas_ok) {
    printer.Add(schema_diagnostics);
    printer.Finish();
    return kExitUsage;
  }
  validate::Options validate_options = CheckOptions(options);
  validate_options.keep_documents = true;
  validate::Counts counts;
  std::vector<std::unique_ptr<diag::SourceFile>> files;
  std::vector<std::unique_ptr<diag::Diagnostics>> all;
  for (const std::string& path : options.inputs) {
    auto& diagnostics = *all.emplace_back(std::make_unique<diag::Diagnostics>());
    std::string error;
    std::optional<std::string> text = ReadInput(path, &error);
    if (!text) {
      diagnostics.Report(diag::Code::kUnreadableInput, nullptr, {}, error);
      ++counts.failed;
    } else {
      const diag::SourceFile& file = *files.emplace_back(
          std::make_unique<diag::SourceFile>(path == "-" ? "<stdin>" : path, std::move(*text)));
      validate::ValidateFile(file, store, validate_options, diagnostics, counts);
    }
    printer.Add(diagnostics);
  }
  printer.Finish();
  std::cout << fmt::format("{} passed, {} failed", counts.passed, counts.failed);
  if (counts.skipped > 0) std::cout << fmt::format(", {} skipped (no schema)", counts.skipped);
  std::cout << "\n";
  return counts.failed > 0 ? kExitDiagnostics : kExitOk;
}

void ValidateWithDefaults(const diag::SourceFile& file, diag::Diagnostics& diagnostics) {
  ValidateOptions defaults;
  validate::SchemaStore store(defaults.argo_version);
  validate::Counts counts;
  validate::ValidateFile(file, store, CheckOptions(defaults), diagnostics, counts);
}

}  // namespace flowc::driver
