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

bool CheckOneNamespace(const ir::Flow& flow, std::string_view target, std::string_view reason,
                       diag::Reporter& report) {
  auto describe = [](const std::string& ns) {
    return ns.empty() ? std::string("the default namespace") : fmt::format("namespace '{}'", ns);
  };
  const ir::Step& first = flow.steps.front();
  bool ok = true;
  for (const ir::Step& step : flow.steps) {
    if (step.pod.namespace_ == first.pod.namespace_) continue;
    ok = false;
    report(diag::Code::kUnsupportedByTarget, step.range,
           fmt::format("step '{}' runs in {} but step '{}' in {}; target '{}' {}", step.name,
                       describe(step.pod.namespace_), first.name, describe(first.pod.namespace_),
                       target, reason))
        .SetHelp("set the namespace once, with @kubernetes(namespace=...) on the flow");
  }
  return ok;
}

void WarnOversizedObjects(const ir::Flow& flow, std::string_view text, diag::Reporter& report) {
  constexpr size_t kLimit = 1572864;  // etcd's default request limit, 1.5 MiB
  size_t document = 1;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find("\n---\n", start);
    if (end == std::string_view::npos) end = text.size();
    size_t size = end - start;
    if (size > kLimit) {
      report(diag::Code::kObjectTooLarge, flow.range,
             fmt::format("document {} of the output is {:.2f} MiB, more than the 1.5 MiB "
                         "Kubernetes stores in one object",
                         document, size / 1048576.0))
          .SetHelp("the API server will refuse it; split the flow into smaller flows");
    }
    start = end + 5;
    ++document;
  }
}

}  // namespace flowc::backends
