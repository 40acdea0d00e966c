// The flowc command line and the pipeline it runs.
//
// Run() is main(): it parses arguments (CLI11), reads inputs, runs the stages
// parse -> graph -> ir -> backend for each file, renders diagnostics once,
// and writes outputs through files.h. Compile() is the pipeline alone, for
// tests and the fuzzer.
#ifndef FLOWC_DRIVER_DRIVER_H_
#define FLOWC_DRIVER_DRIVER_H_

#include <optional>
#include <string>
#include <string_view>

#include "backends/backend.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"

namespace flowc::driver {

// Exit statuses, as documented in docs/cli.md ("Exit status").
enum ExitCode : int {
  kExitOk = 0,
  kExitDiagnostics = 1,
  kExitUsage = 2,
  kExitIo = 3,
};

// parse -> graph -> ir. Returns the IR, or nullopt after reporting errors.
std::optional<ir::Flow> Analyze(const diag::SourceFile& file, diag::Diagnostics& diagnostics);

// Renders `flow` for `target` ("ir" or a backend's name) into `out`, as it goes: the
// backend's capabilities are checked first. Returns false after an error, when what `out`
// received must be dropped.
bool Render(const ir::Flow& flow, std::string_view target, diag::Reporter& report,
            const backends::EmitOptions& options, backends::OutputSink& out);

// The same into a string; nothing is returned after an error.
std::optional<std::string> Render(const ir::Flow& flow, std::string_view target,
                                  diag::Reporter& report,
                                  const backends::EmitOptions& options = {});

// Analyze, then render for `target` ("ir" or a backend's name). Returns the
// text, or nullopt after reporting errors.
std::optional<std::string> Compile(const diag::SourceFile& file, std::string_view target,
                                   diag::Diagnostics& diagnostics,
                                   const backends::EmitOptions& options = {});

int Run(int argc, char** argv);

}  // namespace flowc::driver

#endif  // FLOWC_DRIVER_DRIVER_H_
