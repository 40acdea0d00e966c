#include "backends/argo/checks.h"

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "backends/argo/expr_names.h"
#include "backends/argo/templating.h"
#include "backends/backend.h"
#include "backends/k8s/jobset.h"
#include "backends/k8s/trainjob.h"

namespace flowc::backends::argo {
namespace {

using diag::Code;

// Argo's limit on a CronWorkflow's name (workflow/validate: it gets a `-<Unix time>` suffix and
// may have at most 52 characters). What is over Argo's counts is split (split.h).
constexpr size_t kMaxCronWorkflowName = 52;
// How much longer than the template's name a workflow's name gets: `argo
// submit --from workflowtemplate/X` names it `X-` + 5 random characters, a
// CronWorkflow `X-` + 10 digits of Unix time.
constexpr size_t kSubmittedSuffix = 6;
constexpr size_t kScheduledSuffix = 11;
// A JobSet created inside a foreach body or by a retried step gets `-` + 5
// hex digits of a hash of the creating pod's name, unique per element and
// per attempt; one whose wait @timeout bounds, `-` + 5 hex digits of a hash of
// its element's node name in a foreach, and `-` + the attempt's number when
// retried (bounded_gang.h).
constexpr size_t kIterationSuffix = 6;

// Every shape of the flow that Argo cannot run as written. Reports them all
// and returns false if it reported any. (Literal `{{` that Argo would read as
// a tag is found while rendering, by ArgoStrings.)
class Checker {
 public:
  Checker(const ir::Flow& flow, const Layout& layout, diag::Reporter& report)
      : flow_(flow), layout_(layout), report_(report) {}

  bool Run() {
    CheckNamespace();
    CheckParams();
    CheckSchedule();
    ok_ = CheckDependsNames(flow_, report_) && ok_;
    for (const ir::Step& step : flow_.steps) {
      CheckForeachItems(step);
      if (step.trainjob) {
        ok_ &= k8s::CheckTrainJobNames(step, JobSetNameLength(step), JobSetForm(step), report_);
      } else if (step.parallel) {
        ok_ &= k8s::CheckJobSetNames(flow_, step, {JobSetNameLength(step), 1, 1, JobSetForm(step)},
                                     report_);
      }
    }
    return ok_;
  }

  // How the JobSet of a @parallel step is named, for a diagnostic.
  std::string JobSetForm(const ir::Step& step) const {
    std::string form =
        flow_.schedule ? "<flow>-<10-digit time>-<step>" : "<flow>-<5 random characters>-<step>";
    if (BoundsGang(step)) {
      if (!step.enclosing_foreach.empty()) form += "-<5 hex digits>";
      if (Retried(step)) form += "-<attempt>";
    } else if (HasIterationSuffix(step)) {
      form += "-<5 hex digits>";
    }
    return form;
  }

  // The longest name the JobSet of a @parallel step gets at run time.
  size_t JobSetNameLength(const ir::Step& step) const {
    size_t length = flow_.k8s_name.size() + (flow_.schedule ? kScheduledSuffix : kSubmittedSuffix) +
                    1 + step.k8s_name.size();
    if (BoundsGang(step)) {
      if (!step.enclosing_foreach.empty()) length += kIterationSuffix;
      if (Retried(step)) length += 1 + std::to_string(step.retry->times).size();
      return length;
    }
    return length + (HasIterationSuffix(step) ? kIterationSuffix : 0);
  }

 private:
  // Argo runs every pod of a workflow in the workflow's namespace, and a
  // JobSet it creates must be there too: an owner reference cannot cross
  // namespaces.
  void CheckNamespace() {
    ok_ = CheckOneNamespace(flow_, "argo", "runs a whole workflow in one namespace", report_) && ok_;
  }

  // Argo reads a parameter's value as a template again wherever it is
  // substituted, so a default must not hold a tag Argo would resolve.
  void CheckParams() {
    for (const ir::Param& param : flow_.params) {
      if (!param.default_json) continue;
      for (const std::string& tag : LiteralsArgoWouldRead(ParamValue(param))) {
        ok_ = false;
        ReportArgoTag(report_, param.range, fmt::format("the default of param '{}'", param.name),
                      "text", tag, "pass such a value at submit time, with 'argo submit -p'");
      }
    }
  }

  // A CronWorkflow submits its workflow with the template's defaults only.
  void CheckSchedule() {
    if (!flow_.schedule) return;
    for (const ir::Param& param : flow_.params) {
      if (param.default_json) continue;
      ok_ = false;
      report_(Code::kUnsupportedByTarget, param.range,
              fmt::format("param '{}' has no default, but a scheduled run of flow '{}' cannot "
                          "be given one",
                          param.name, flow_.name))
          .AddNote(flow_.schedule->range, "the flow is scheduled here")
          .SetHelp(fmt::format("give '{}' a default", param.name));
    }
    if (flow_.k8s_name.size() > kMaxCronWorkflowName) {
      ok_ = false;
      report_(Code::kNameTooLong, flow_.range,
              fmt::format("the CronWorkflow of flow '{}' would be named '{}' ({} characters); "
                          "Argo allows at most {}",
                          flow_.name, flow_.k8s_name, flow_.k8s_name.size(),
                          kMaxCronWorkflowName))
          .AddNote(flow_.schedule->range, "the flow is scheduled here")
          .AddNote("Argo appends '-<Unix time>' to name each scheduled workflow")
          .SetHelp(fmt::format("shorten the flow name by at least {} characters",
                               flow_.k8s_name.size() - kMaxCronWorkflowName));
    }
  }

  // Argo templates a task's items with the task, before it iterates.
  void CheckForeachItems(const ir::Step& step) {
    if (!step.foreach) return;
    for (const std::string& item : step.foreach->items) {
      for (const std::string& tag : LiteralsArgoWouldRead(item)) {
        ok_ = false;
        ReportArgoTag(report_, step.range, fmt::format("the foreach of step '{}'", step.name),
                      "element", tag,
                      "iterate over a list param and pass such elements at submit time");
      }
    }
  }

  const ir::Flow& flow_;
  const Layout& layout_;
  diag::Reporter& report_;
  bool ok_ = true;
};

}  // namespace

bool CheckFlow(const ir::Flow& flow, const Layout& layout, diag::Reporter& report) {
  return Checker(flow, layout, report).Run();
}

void ReportArgoTag(diag::Reporter& report, diag::SourceRange at, std::string_view subject,
                   std::string_view noun, std::string_view tag, std::string_view help) {
  report(Code::kUnsupportedByTarget, at,
         fmt::format("{} has the {} '{}', which Argo would read as its own template tag", subject,
                     noun, tag))
      .AddNote(kSubstitutionNote)
      .SetHelp(std::string(help));
}

}  // namespace flowc::backends::argo
