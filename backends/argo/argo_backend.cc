// The Argo target: checks a flow, plans whether it must be split (split.h), and drives the
// Renderer (renderer.h) over the output.
#include "backends/argo/argo_backend.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
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
    // Over Argo's limits, DAGs nest and templates move to further WorkflowTemplates (split.h);
    // which go where is decided on the templates' sizes, measured first.
    DagPlan plan(flow, layout);
    std::vector<TemplateUnit> units = TemplateUnits(flow, layout, plan);
    std::vector<size_t> part_of(units.size());
    std::optional<size_t> parts = Partition(flow, layout, plan, units, options, part_of, report);
    if (!parts) return false;
    const bool split = plan.nests() || *parts > 1;
    // The text goes into the sink as it is written: the driver keeps it until the compile
    // has succeeded (backend.h), so the checks the rendering makes may still fail it. A split
    // flow's text streams (it is thousands of steps).
    k8s::SinkEmitter yaml(out, split ? SIZE_MAX : flow.steps.size());
    Renderer renderer(flow, layout, yaml.yaml(), options.argo_version);
    // The objects the pods need come first in the stream (`kubectl apply`
    // creates them in order); Argo itself never reads them.
    k8s::EmitObjectDocuments(yaml.yaml(), flow);
    if (split) {
      renderer.SplitWorkflowTemplates(plan, units, part_of, *parts);
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
