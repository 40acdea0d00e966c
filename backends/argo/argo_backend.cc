// The Argo target: checks a flow, plans whether it must be split (split.h), and drives the
// Renderer (renderer.h) over the output.
#include "backends/argo/argo_backend.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string_view>
#include <vector>

#include "backends/argo/checks.h"
#include "backends/argo/layout.h"
#include "backends/argo/renderer.h"
#include "backends/argo/split.h"
#include "backends/k8s/objects.h"
#include "backends/k8s/yaml_scalar.h"

namespace flowc::backends::argo {
namespace {

// Discards its text: a YAML::Emitter over it only counts the bytes.
class Discard final : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize size) override { return size; }
};

class ArgoTarget final : public Backend {
 public:
  std::string_view name() const override { return "argo"; }
  std::string_view extension() const override { return ".yaml"; }
  unsigned capabilities() const override { return kForeach | kParallel | kSchedule | kParams; }

  bool Emit(const ir::Flow& flow, const EmitOptions& options, OutputSink& out,
            diag::Reporter& report) const override {
    if (flow.steps.empty()) return false;
    Layout layout(flow);
    bool ok = CheckFlow(flow, layout, report);
    if (!ok) {
      // Refused: no text, but every diagnostic the rendering would add.
      YAML::Emitter unused;
      Renderer renderer(flow, layout, unused, options.argo_version);
      renderer.CheckStrings();
      renderer.ReportUnsafeLiterals(report);
      return false;
    }
    // Over Argo's limits, the flow is cut into parts that run as Workflows of their own
    // (split.h); where it is cut is decided on the templates' sizes, measured first (which
    // renders every pod: a literal Argo would read is reported before any text is written).
    Discard discard;
    std::ostream stream(&discard);
    YAML::Emitter counted(stream);
    Renderer measure(flow, layout, counted, options.argo_version);
    const Sizes sizes = measure.Measure();
    if (!measure.ReportUnsafeLiterals(report)) return false;
    DagPlan plan(flow, layout, sizes);
    const bool split = plan.splits();
    // The text goes into the sink as it is written: the driver keeps it until the compile
    // has succeeded (backend.h), so the checks the rendering makes may still fail it. A split
    // flow's text streams (it is thousands of steps).
    k8s::SinkEmitter yaml(out, split ? SIZE_MAX : flow.steps.size());
    Renderer renderer(flow, layout, yaml.yaml(), options.argo_version);
    // The objects the pods need come first in the stream (`kubectl apply`
    // creates them in order); Argo itself never reads them.
    k8s::EmitObjectDocuments(yaml.yaml(), flow);
    if (split) {
      renderer.SplitWorkflowTemplates(plan);
    } else {
      renderer.WorkflowTemplate();
    }
    if (flow.schedule) renderer.CronWorkflow();
    ok &= renderer.ReportUnsafeLiterals(report);
    if (!ok) return false;
    yaml.Flush();
    out.Write("\n");
    return true;
  }
};

}  // namespace

const Backend& ArgoBackend() {
  static const ArgoTarget backend;
  return backend;
}

}  // namespace flowc::backends::argo
