#include "compiler/driver/validate_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <memory>
#include <thread>

#include "compiler/driver/diagnostic_printer.h"
#include "compiler/driver/driver.h"
#include "compiler/driver/files.h"
#include "compiler/validate/schema_check.h"
#include "compiler/validate/validate.h"

namespace flowc::driver {

namespace {

// A --FAMILY-version option: its value must name a bundled version (validate::MatchVersion).
void AddVersionOption(CLI::App* validate, const std::string& family, std::string& value,
                      const std::string& what) {
  std::string choices, fallback;
  for (const validate::BundledFamily& f : validate::BundledFamilies()) {
    if (f.family != family) continue;
    for (auto it = f.versions.rbegin(); it != f.versions.rend(); ++it) {
      choices += (choices.empty() ? "" : "|") + validate::FlagValue(family, *it);
    }
    fallback = validate::FlagValue(family, f.default_version);
  }
  std::string flag = validate::VersionFlag(family);
  validate->add_option(flag, value, what + " (" + choices + ")")
      ->check(CLI::Validator(
          [family, choices](std::string& v) -> std::string {
            if (!validate::MatchVersion(family, v).empty()) return "";
            return "'" + v + "' is not a bundled version of " + family + ": " + choices;
          },
          "VERSION"))
      ->default_str(fallback);
}

}  // namespace

CLI::App* AddValidateCommand(CLI::App& app, ValidateOptions& options) {
  CLI::App* validate = app.add_subcommand(
      "validate",
      "Check Kubernetes YAML (Argo, JobSet, Trainer, Kueue, DRA, core kinds) as a cluster would");
  validate->add_option("files", options.inputs, "YAML files ('-' reads stdin)");
  validate->add_flag("--list", options.list,
                     "Print each bundled family, its versions (the default marked) and their "
                     "kinds, and exit");
  validate
      ->add_option("--argo-version", options.argo_version,
                   "Argo Workflows CRDs to check argoproj.io kinds against")
      ->check(CLI::IsMember({"3.7", "4.1"}))
      ->default_str("4.1");
  AddVersionOption(validate, "kubernetes", options.kubernetes_version,
                   "Kubernetes version whose built-in kinds to check against");
  AddVersionOption(validate, "jobset", options.jobset_version, "JobSet CRD version");
  AddVersionOption(validate, "kueue", options.kueue_version, "Kueue CRDs version");
  AddVersionOption(validate, "kubeflow-trainer", options.trainer_version,
                   "Kubeflow Trainer CRDs version");
  // One directory per --schemas: the files that follow are inputs, now that they are optional
  // (--list needs none).
  validate
      ->add_option("--schemas", options.schema_dirs,
                   "Directory of CRD YAML files (or `kubectl get crd -o yaml` output) that add "
                   "or replace bundled kinds; repeatable")
      ->allow_extra_args(false);
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

validate::SchemaStore::Versions Versions(const ValidateOptions& options) {
  return {{"argo-workflows", options.argo_version},
          {"kubernetes", options.kubernetes_version},
          {"jobset", options.jobset_version},
          {"kueue", options.kueue_version},
          {"kubeflow-trainer", options.trainer_version}};
}

// --list: each family with its flag, then each version (newest first, the default marked) with
// its kinds, a line per apiVersion.
void PrintBundled() {
  for (const validate::BundledFamily& f : validate::BundledFamilies()) {
    std::cout << fmt::format("{} ({})\n", f.family, validate::VersionFlag(f.family));
    for (const std::string& version : f.versions) {
      std::cout << fmt::format("  {} ({} {}){}\n", version, validate::VersionFlag(f.family),
                               validate::FlagValue(f.family, version),
                               version == f.default_version ? " default" : "");
      std::string api, line;
      for (const std::string& pair : validate::BundledKinds(f.family, version)) {
        size_t space = pair.find(' ');
        if (pair.compare(0, space, api) != 0 || line.empty()) {
          if (!line.empty()) std::cout << line << "\n";
          api = pair.substr(0, space);
          line = fmt::format("    {}: {}", api, pair.substr(space + 1));
        } else {
          line += ", " + pair.substr(space + 1);
        }
      }
      if (!line.empty()) std::cout << line << "\n";
    }
  }
}

}  // namespace

int RunValidate(const ValidateOptions& options) {
  if (options.list) {
    PrintBundled();
    return kExitOk;
  }
  if (options.inputs.empty()) {
    std::cerr << "validate: files is required (or --list)\n"
              << "Run with --help for more information.\n";
    return kExitUsage;
  }
  DiagnosticPrinter printer(options.format, /*werror=*/false);
  // Kept until the exit, which main() takes without running static destructors: taking apart
  // the parsed schemas' many thousand nodes cost a fifth of a run (as FlowKeptUntilExit in
  // driver.cc). Still reachable, so the sanitizers' leak check does not count it.
  static std::unique_ptr<validate::SchemaStore> kept;
  kept = std::make_unique<validate::SchemaStore>(Versions(options));
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

  // Files are checked in parallel, a worker per core. Each file reports into its own
  // Diagnostics and Counts, printed afterwards in the order the files were given, so the output
  // does not depend on the scheduling. Task 0 reads the Kubernetes definitions, which nearly
  // every kind needs, while the other workers read YAML.
  struct FileRun {
    std::optional<std::string> text;         // standard input's, read before the workers start
    std::string error;                       // why the file could not be read
    std::unique_ptr<diag::SourceFile> file;  // outlives the diagnostics that point into it
    diag::Diagnostics diagnostics;
    validate::Counts counts;
  };
  std::vector<FileRun> runs(options.inputs.size());
  // `-` is read here, in order: two workers reading standard input at once would split it
  // between them. A second `-` reads what the first left, nothing, as it did before threads.
  for (size_t i = 0; i < runs.size(); ++i) {
    if (options.inputs[i] == "-") runs[i].text = ReadInput("-", &runs[i].error);
  }
  std::atomic<size_t> next_task{0};
  auto work = [&] {
    for (size_t task; (task = next_task++) <= runs.size();) {
      if (task == 0) {
        store.Preload();
        continue;
      }
      FileRun& run = runs[task - 1];
      const std::string& path = options.inputs[task - 1];
      if (path != "-") run.text = ReadInput(path, &run.error);
      if (!run.text) {
        run.diagnostics.Report(diag::Code::kUnreadableInput, nullptr, {}, run.error);
        ++run.counts.failed;
        continue;
      }
      run.file =
          std::make_unique<diag::SourceFile>(path == "-" ? "<stdin>" : path, std::move(*run.text));
      validate::ValidateFile(*run.file, store, validate_options, run.diagnostics, run.counts);
    }
  };
  validate::PrepareForThreads();
  size_t workers = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 8);
  std::vector<std::thread> threads;
  for (size_t i = 1; i < std::min(workers, runs.size() + 1); ++i) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();

  validate::Counts counts;
  for (FileRun& run : runs) {
    printer.Add(run.diagnostics);
    counts.passed += run.counts.passed;
    counts.failed += run.counts.failed;
    counts.skipped += run.counts.skipped;
  }
  printer.Finish();
  std::cout << fmt::format("{} passed, {} failed", counts.passed, counts.failed);
  if (counts.skipped > 0) std::cout << fmt::format(", {} skipped (no schema)", counts.skipped);
  std::cout << "\n";
  return counts.failed > 0 ? kExitDiagnostics : kExitOk;
}

void ValidateWithDefaults(const diag::SourceFile& file, diag::Diagnostics& diagnostics) {
  ValidateOptions defaults;
  validate::SchemaStore store(Versions(defaults));
  validate::Counts counts;
  validate::ValidateFile(file, store, CheckOptions(defaults), diagnostics, counts);
}

}  // namespace flowc::driver
