#include <algorithm>

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

void DocumentSizes::Write(std::string_view text) {
  static constexpr std::string_view kSeparator = "\n---\n";
  next_.Write(text);
  // A separator that starts in the last bytes of earlier writes (at most one can: separators
  // are found without overlap) ...
  size_t from = 0;
  std::string boundary = recent_ + std::string(text.substr(0, kSeparator.size() - 1));
  size_t at = boundary.find(kSeparator);
  if (at != std::string::npos && at < recent_.size()) {
    size_t offset = written_ - recent_.size() + at;
    closed_.push_back(offset - start_);
    start_ = offset + kSeparator.size();
    from = start_ - written_;
  }
  // ... then those inside this write.
  for (at = text.find(kSeparator, from); at != std::string_view::npos;
       at = text.find(kSeparator, from)) {
    closed_.push_back(written_ + at - start_);
    start_ = written_ + at + kSeparator.size();
    from = at + kSeparator.size();
  }
  written_ += text.size();
  // The open document's last bytes, up to one short of a separator.
  size_t keep = std::min(written_ - std::min(start_, written_), kSeparator.size() - 1);
  if (keep <= text.size()) {
    recent_.assign(text.substr(text.size() - keep));
  } else {
    recent_ = recent_.substr(recent_.size() - (keep - text.size())) + std::string(text);
  }
}

std::vector<size_t> DocumentSizes::sizes() const {
  std::vector<size_t> sizes = closed_;
  if (start_ < written_) sizes.push_back(written_ - start_);
  return sizes;
}

void WarnOversizedObjects(const ir::Flow& flow, const std::vector<size_t>& sizes,
                          diag::Reporter& report) {
  constexpr size_t kLimit = 1572864;  // etcd's default request limit, 1.5 MiB
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] <= kLimit) continue;
    report(diag::Code::kObjectTooLarge, flow.range,
           fmt::format("document {} of the output is {:.2f} MiB, more than the 1.5 MiB "
                       "Kubernetes stores in one object",
                       i + 1, sizes[i] / 1048576.0))
        .SetHelp("the API server will refuse it; split the flow into smaller flows");
  }
}

}  // namespace flowc::backends
