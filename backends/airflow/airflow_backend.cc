// Placeholder until the Airflow target is written.
#include "backends/airflow/airflow_backend.h"

namespace flowc::backends::airflow {
namespace {

class Placeholder final : public Backend {
 public:
  std::string_view name() const override { return "airflow"; }
  std::string_view extension() const override { return ".yaml"; }
  unsigned capabilities() const override { return 0; }
  bool Emit(const ir::Flow&, const EmitOptions&, OutputSink&, diag::Reporter& report) const override {
    report(diag::Code::kUnsupportedByTarget, {}, "the 'airflow' target is not built yet")
        .SetHelp("use --target ir");
    return false;
  }
};

}  // namespace

const Backend& AirflowBackend() {
  static const Placeholder backend;
  return backend;
}

}  // namespace flowc::backends::airflow
