#include <fmt/format.h>

#include "backends/backend.h"

namespace flowc::backends {

bool CheckCapabilities(const ir::Flow& flow, const Backend& backend, diag::Reporter& report) {
  unsigned caps = backend.capabilities();
  bool ok = true;
  auto unsupported = [&](diag::SourceRange at, std::string what) {
    ok = false;
    report(diag::Code::kUnsupportedByTarget, at,
           fmt::format("{} cannot be expressed by target '{}'", what, backend.name()))
        .SetHelp("compile this flow with --target argo, which supports every construct");
  };
  if (!(caps & kSchedule) && flow.schedule) {
    unsupported(flow.schedule->range, "'@schedule'");
  }
  for (const ir::Step& step : flow.steps) {
    if (!(caps & kForeach) && step.foreach) {
      unsupported(step.range, fmt::format("the foreach of step '{}'", step.name));
    }
    if (!(caps & kParallel) && step.parallel) {
      unsupported(step.range, fmt::format("'@parallel' on step '{}'", step.name));
    }
  }
  return ok;
}

}  // namespace flowc::backends
