#include "compiler/driver/fmt_command.h"

#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

#include "compiler/diag/diagnostics.h"
#include "compiler/driver/diagnostic_printer.h"
#include "compiler/driver/driver.h"
#include "compiler/driver/files.h"
#include "compiler/driver/spool.h"
#include "compiler/format/format.h"

namespace flowc::driver {

namespace {

// Where a rewrite goes: a link's target, so that the link stays a link (the rename would
// replace it with a file).
std::string RealPath(const std::string& path) {
  char resolved[PATH_MAX];
  return ::realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : path;
}

// Replaces `path`'s content with `text` through a temporary file and a rename, keeping the
// file's permission bits. Returns the exit status.
int Rewrite(const std::string& path, const std::string& text) {
  std::string target = RealPath(path);
  Spool spool(target);
  struct stat st;
  if (::stat(target.c_str(), &st) == 0) spool.set_mode(st.st_mode);
  spool.Write(text);
  std::string error;
  if (!spool.Commit(&error)) return IoError(error);
  return kExitOk;
}

}  // namespace

CLI::App* AddFmtCommand(CLI::App& app, FmtOptions& options) {
  CLI::App* fmt =
      app.add_subcommand("fmt", "Rewrite flows in the canonical layout (docs/formatting.md)");
  fmt->add_option("files", options.inputs,
                  "Flow files, rewritten in place; '-' formats stdin to stdout")
      ->required();
  fmt->add_flag("--check", options.check,
                "Write nothing; print the name of each file that is not formatted, exit 1 if any");
  fmt->add_flag("--diff", options.diff,
                "Write nothing; print a unified diff for each file that is not formatted, exit 1 "
                "if any");
  fmt->add_option("--diagnostics-format", options.diagnostics_format,
                  "How diagnostics are printed on stderr")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->default_str("text");
  return fmt;
}

int RunFmt(const FmtOptions& options) {
  DiagnosticPrinter printer(options.diagnostics_format, /*werror=*/false);
  int status = kExitOk;
  // Each file lives until the diagnostics, which point into it, are printed.
  std::vector<std::unique_ptr<diag::SourceFile>> files;
  for (const std::string& path : options.inputs) {
    std::string error;
    std::optional<std::string> text = ReadInput(path, &error);
    if (!text) {
      status = std::max(status, IoError(error));
      continue;
    }
    std::string name = path == "-" ? "<stdin>" : path;
    const diag::SourceFile& file =
        *files.emplace_back(std::make_unique<diag::SourceFile>(name, std::move(*text)));
    diag::Diagnostics diagnostics;
    std::optional<std::string> formatted = format::Format(file, diagnostics);
    printer.Add(diagnostics);
    if (!formatted) {
      status = std::max(status, int{kExitDiagnostics});
      continue;
    }
    bool changed = *formatted != file.text();
    if (options.check || options.diff) {
      if (!changed) continue;
      status = std::max(status, int{kExitDiagnostics});
      std::cout << (options.diff ? UnifiedDiff(file.text(), *formatted, name, name) : name + "\n");
    } else if (path == "-") {
      if (!(std::cout << *formatted << std::flush)) {
        status = std::max(status, IoError("cannot write to stdout"));
      }
    } else if (changed) {  // a formatted file is not touched
      status = std::max(status, Rewrite(path, *formatted));
    }
  }
  printer.Finish();
  std::cout.flush();
  return status;
}

}  // namespace flowc::driver
