// The Argo target's renderer: writes a flow's WorkflowTemplate (and CronWorkflow) as YAML. Used
// by argo_backend.cc, which checks the flow, decides whether it must be split, and drives one
// Renderer over the output (and, for a split flow, one over a byte counter first).
//
// Every pod field comes from backends/k8s; the renderer writes only what is Argo's own: the
// DAGs, the control fields and where each pod field goes in a template. Its methods live in two
// files, so each stays readable: renderer.cc writes the documents of a flow within Argo's limits
// and every template's pod, and split_render.cc writes a flow over them (split.h plans its
// parts), reusing the same task and leaf writers so a split flow's step templates are byte for
// byte what an unsplit flow's would be (but for `{{run_id}}` in a part: templating.h).
#ifndef FLOWC_BACKENDS_ARGO_RENDERER_H_
#define FLOWC_BACKENDS_ARGO_RENDERER_H_

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backends/argo/argo_strings.h"
#include "backends/argo/layout.h"
#include "backends/argo/split.h"
#include "backends/backend.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::argo {

class Renderer {
 public:
  Renderer(const ir::Flow& flow, const Layout& layout, YAML::Emitter& out,
           ArgoVersion argo_version);

  // The WorkflowTemplate of a flow within Argo's limits: one DAG per scope, every step's leaf.
  void WorkflowTemplate();

  // A flow over Argo's limits: each part's WorkflowTemplate, then the main one (split.h).
  void SplitWorkflowTemplates(const DagPlan& plan);

  // The YAML bytes of each step's template(s) and task, each reference taken as the longest it
  // can be, and of a WorkflowTemplate around no template (to be run on a byte counter).
  Sizes Measure();

  // The second document of the stream.
  void CronWorkflow();

  // For a flow whose output is refused: finds what WorkflowTemplate would report, each pod's
  // strings through the same calls in the same order, a container's recorded rather than
  // formatted (a gang's manifest is made as for the output: its strings are the manifest's).
  void CheckStrings();

  // Reports each literal `{{` that Argo would not pass through, at its step.
  bool ReportUnsafeLiterals(diag::Reporter& report) const;

 private:
  // Up to the templates of the WorkflowTemplate that holds part `part` of the templates: the
  // main one (0) is what a workflow runs, with the entrypoint, the params and the pull secrets
  // of the whole workflow; a further one holds templates only.
  // `on_exit`: the template the WorkflowTemplate's spec.onExit names, if any (a split flow's).
  void BeginWorkflowTemplate(size_t part, const std::string* on_exit = nullptr);
  void EndWorkflowTemplate();

  // The documents' pieces, and every template's pod (renderer.cc).
  template <class Out>
  void SharedPullSecrets(Out& out);
  void Metadata(const std::string& name);
  void Arguments();
  void ItemInputs(std::optional<size_t> scope);
  void ItemArgument(const std::string& value);
  void Dag(std::optional<size_t> scope);
  void StepTask(size_t step, std::optional<size_t> scope);
  void BodyTask(size_t foreach_step);
  void Items(size_t foreach_step);
  void NameAndTemplate(const std::string& name);
  void Depends(const std::vector<std::string>& tasks);
  void Leaf(size_t i);
  template <class Out>
  void Container(Out& out, size_t i);
  template <class Out>
  void RetryStrategy(Out& out, const ir::Step& step);
  std::string Manifest(size_t i);
  void JobSetResource(size_t i);
  void Collect(size_t step, const ArgoStrings& strings);

  // A split flow's templates (split_render.cc).
  void PartWorkflowTemplate(size_t part);
  void Contents(const std::vector<DagEntry>& entries);
  void PlannedDag(const std::string& name, std::optional<size_t> scope,
                  const std::vector<DagEntry>& entries, std::optional<size_t> part);
  void PartArguments(const std::string& workflow_template, std::optional<size_t> scope);
  void CreatePart();
  void StopParts();
  std::string PartManifest();

  const ir::Flow& flow_;
  const Layout& layout_;
  YAML::Emitter& out_;
  // A split flow's plan.
  const DagPlan* plan_ = nullptr;
  bool shared_pull_secrets_ = false;
  // The templates being written run in a part's Workflow (split.h): RefContext::in_part.
  bool in_part_ = false;
  ArgoVersion argo_version_ = ArgoVersion::k4_1;
  std::vector<std::pair<size_t, std::string>> unsafe_;
};

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_RENDERER_H_
