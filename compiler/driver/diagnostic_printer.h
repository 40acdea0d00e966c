// How the flowc command prints diagnostics: one renderer for every subcommand (compile, check,
// graph, fmt), in the format --diagnostics-format chose, on stderr. Also the message of an I/O
// error, which is no diagnostic of a source file.
#ifndef FLOWC_DRIVER_DIAGNOSTIC_PRINTER_H_
#define FLOWC_DRIVER_DIAGNOSTIC_PRINTER_H_

#include <string>
#include <vector>

#include "compiler/diag/diagnostics.h"

namespace flowc::driver {

// Renders every diagnostic once, in the chosen format ("text", "json" or "sarif"), on stderr.
// The json and sarif documents point into the files: keep them alive until Finish.
class DiagnosticPrinter {
 public:
  DiagnosticPrinter(std::string format, bool werror) : format_(std::move(format)), werror_(werror) {}

  // Prints (text) or collects (json, sarif) the diagnostics of one file.
  void Add(diag::Diagnostics& diagnostics);

  // The json and sarif formats print one document for the whole run.
  void Finish();

 private:
  std::string format_;
  bool werror_;
  std::vector<diag::Diagnostic> all_;
};

// Prints "flowc: error: MESSAGE" on stderr and returns the I/O exit status.
int IoError(const std::string& message);

}  // namespace flowc::driver

#endif  // FLOWC_DRIVER_DIAGNOSTIC_PRINTER_H_
