// Placeholder until the Argo target is written.
#include "backends/argo/argo_backend.h"

namespace flowc::backends::argo {
namespace {

class Placeholder final : public Backend {
 public:
  std::string_view name() const override { return "argo"; }
  std::string_view extension() const override { return ".yaml"; }
  unsigned capabilities() const override { return 0; }
  bool Emit(const ir::Flow&, const EmitOptions&, OutputSink&, diag::Reporter& report) const override {
    report(diag::Code::kUnsupportedByTarget, {}, "the 'argo' target is not built yet")
        .SetHelp("use --target ir");
    return false;
  }
};

}  // namespace

const Backend& ArgoBackend() {
  static const Placeholder backend;
  return backend;
}

}  // namespace flowc::backends::argo
