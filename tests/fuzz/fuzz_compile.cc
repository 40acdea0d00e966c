// libFuzzer target: arbitrary bytes through the whole pipeline.
//
// Every input is parsed and checked; every input that checks is compiled for
// every target, and each YAML output is parsed back (yaml-cpp) so that an
// escaping bug that produces invalid YAML is a crash, not a silent defect.
// Every input that parses is formatted too: the output must format to itself
// and mean what the input meant (the same IR but the steps' lines).
// Run by tests/fuzz/run_fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include <yaml-cpp/yaml.h>

#include "backends/registry.h"
#include "compiler/driver/driver.h"
#include "compiler/format/format.h"
#include "tests/unit/format_oracle.h"

namespace {

// Aborts unless formatting `file` (when it parses) is idempotent and keeps its meaning.
void CheckFormat(const flowc::diag::SourceFile& file) {
  flowc::diag::Diagnostics diagnostics;
  std::optional<std::string> formatted = flowc::format::Format(file, diagnostics);
  if (!formatted) return;
  flowc::diag::SourceFile again(file.path(), *formatted);
  std::optional<std::string> twice = flowc::format::Format(again, diagnostics);
  if (!twice || *twice != *formatted) {
    std::cerr << "fmt is not idempotent:\n" << *formatted << "\n---\n" << twice.value_or("");
    std::abort();
  }
  std::string before = flowc::testing::MeaningOf(file.path(), file.text());
  std::string after = flowc::testing::MeaningOf(file.path(), *formatted);
  if (before != after) {
    std::cerr << "fmt changed the meaning:\n" << *formatted << "\n---\n" << before << "\n---\n"
              << after;
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  flowc::diag::SourceFile file("fuzz.flow", std::string(reinterpret_cast<const char*>(data), size));
  CheckFormat(file);
  flowc::diag::Diagnostics diagnostics;
  std::optional<flowc::ir::Flow> flow = flowc::driver::Analyze(file, diagnostics);
  // Rendering every diagnostic exercises the caret and snippet code too.
  (void)flowc::diag::RenderText(diagnostics.all());
  if (!flow) {
    if (!diagnostics.HasErrors()) std::abort();  // failed without saying why
    return 0;
  }
  for (const flowc::backends::Backend* backend : flowc::backends::AllBackends()) {
    flowc::diag::Diagnostics target_diagnostics;
    flowc::diag::Reporter report(target_diagnostics, file);
    std::optional<std::string> text = flowc::driver::Render(*flow, backend->name(), report);
    if (!text || backend->extension() != ".yaml") continue;
    try {
      (void)YAML::LoadAll(*text);
    } catch (const YAML::Exception& e) {
      std::cerr << "invalid YAML from target " << backend->name() << ": " << e.what() << "\n"
                << *text;
      std::abort();
    }
  }
  return 0;
}
