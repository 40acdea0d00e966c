// libFuzzer target: arbitrary bytes through the whole pipeline.
//
// Every input is parsed and checked; every input that checks is compiled for
// every target, and each YAML output is parsed back (yaml-cpp) so that an
// escaping bug that produces invalid YAML is a crash, not a silent defect.
// Run by tests/fuzz/run_fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include <yaml-cpp/yaml.h>

#include "backends/registry.h"
#include "compiler/driver/driver.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  flowc::diag::SourceFile file("fuzz.flow", std::string(reinterpret_cast<const char*>(data), size));
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
