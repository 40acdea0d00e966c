#include "compiler/lsp/pod_summary.h"

#include <fmt/format.h>

#include "backends/registry.h"

namespace flowc::lsp {
namespace {

// Takes a target's text and drops it: only its diagnostics are wanted.
class NullSink final : public backends::OutputSink {
 public:
  void Write(std::string_view) override {}
};

std::string Join(const ir::KeyValues& pairs, std::string_view between) {
  std::string out;
  for (const auto& [key, value] : pairs) {
    if (!out.empty()) out += ", ";
    out += fmt::format("`{}{}{}`", key, between, value);
  }
  return out;
}

std::string Command(const ir::Pod& pod) {
  std::string out;
  for (const graph::Text& arg : pod.command) {
    if (!out.empty()) out += ' ';
    std::string text = arg.ToFlowString();
    out += text.find_first_of(" \t\n\"") == std::string::npos ? text : fmt::format("\"{}\"", text);
  }
  return out;
}

std::string Toleration(const ir::Toleration& t) {
  std::string out = t.key.empty() ? "(every key)" : t.key;
  out += " " + t.op;
  if (!t.value.empty()) out += " " + t.value;
  if (!t.effect.empty()) out += " " + t.effect;
  if (t.toleration_seconds) out += fmt::format(" for {}s", *t.toleration_seconds);
  return out;
}

std::string Claim(const ir::Flow& flow, const ir::PodResourceClaim& claim) {
  for (const ir::Object& object : flow.objects) {
    const auto* rct = std::get_if<ir::ResourceClaimTemplate>(&object.spec);
    if (object.name != claim.template_name || rct == nullptr) continue;
    std::string devices = rct->allocation_mode == "All"
                              ? fmt::format("every {} device of the node", rct->device_class)
                              : fmt::format("{} x {}", rct->count, rct->device_class);
    std::string out = fmt::format("`{}`: {} (ResourceClaimTemplate `{}`)", claim.name, devices,
                                  claim.template_name);
    for (const std::string& selector : rct->selectors) out += fmt::format(", `{}`", selector);
    if (!rct->match_attribute.empty())
      out += fmt::format(", connected by `{}`", rct->match_attribute);
    return out;
  }
  return fmt::format("`{}`: the cluster's ResourceClaimTemplate `{}`", claim.name,
                     claim.template_name);
}

// How `target` runs `step`, when it can.
std::string How(std::string_view target, const ir::Step& step) {
  std::string gang;
  if (step.trainjob) {
    gang = fmt::format("a TrainJob of {} nodes", step.parallel->nodes);
  } else if (step.parallel) {
    gang = fmt::format("a JobSet of {} nodes", step.parallel->nodes);
  }
  if (target == "argo")
    return gang.empty() ? "a pod (a container template)"
                        : gang + ", created by a resource template";
  if (target == "airflow")
    return gang.empty() ? "a KubernetesPodOperator task" : gang + ", created by the DAG";
  if (target == "jobset") {
    return step.parallel ? fmt::format("a replicated job of {} pods in the flow's JobSet",
                                       step.parallel->nodes)
                         : "a replicated job of the flow's JobSet";
  }
  return gang.empty() ? "a pod" : gang;
}

const std::vector<std::pair<std::string, diag::Diagnostics>>& TargetChecks(const Analysis& a) {
  if (!a.target_checks.empty()) return a.target_checks;
  for (const backends::Backend* backend : backends::AllBackends()) {
    diag::Diagnostics diagnostics;
    diag::Reporter report(diagnostics, *a.file);
    backends::CheckCapabilities(*a.ir, *backend, report);
    NullSink sink;
    backend->Emit(*a.ir, backends::EmitOptions{}, sink, report);
    a.target_checks.emplace_back(std::string(backend->name()), std::move(diagnostics));
  }
  return a.target_checks;
}

}  // namespace

std::string PodSummary(const Analysis& lowered, const std::string& name) {
  const ir::Flow& flow = *lowered.ir;
  const ir::Step* step = nullptr;
  for (const ir::Step& s : flow.steps) {
    if (s.name == name) step = &s;
  }
  if (step == nullptr) return "";
  const ir::Pod& pod = step->pod;
  std::string out = fmt::format("**step {}**: its pod, as every target renders it\n", name);
  auto line = [&out](std::string_view label, const std::string& value) {
    if (!value.empty()) out += fmt::format("\n- {}: {}", label, value);
  };
  line("image", pod.image->empty() ? "" : fmt::format("`{}`", *pod.image));
  line("command", fmt::format("`{}`", Command(pod)));
  line("requests", Join(pod.resources->requests, ": "));
  line("limits", Join(pod.resources->limits, ": "));
  std::string claims;
  for (const ir::PodResourceClaim& claim : *pod.resource_claims) {
    claims += (claims.empty() ? "" : "; ") + Claim(flow, claim);
  }
  line("DRA claims", claims);
  std::string tolerations;
  for (const ir::Toleration& t : *pod.tolerations) {
    tolerations += fmt::format("{}`{}`", tolerations.empty() ? "" : ", ", Toleration(t));
  }
  line("tolerations", tolerations);
  line("node selector", Join(*pod.node_selector, "="));
  std::string env;
  for (const ir::EnvVar& var : *pod.env) {
    env += fmt::format("{}`{}={}`", env.empty() ? "" : ", ", var.name,
                       var.field_path.empty() ? var.value : "(" + var.field_path + ")");
  }
  line("env", env);
  std::string mounts;
  for (const ir::VolumeMount& mount : *pod.volume_mounts) {
    mounts += fmt::format("{}`{}`{}", mounts.empty() ? "" : ", ", mount.mount_path,
                          mount.read_only ? " (read-only)" : "");
  }
  line("mounts", mounts);
  line("namespace", pod.namespace_->empty() ? "" : fmt::format("`{}`", *pod.namespace_));
  line("service account",
       pod.service_account_name->empty() ? "" : fmt::format("`{}`", *pod.service_account_name));
  if (step->retry) {
    line("retry", fmt::format("{} times, {} min apart", step->retry->times,
                              step->retry->minutes_between_retries));
  }
  if (step->timeout_seconds) line("timeout", fmt::format("{} s", *step->timeout_seconds));
  out += "\n\nTargets:";
  for (const auto& [target, diagnostics] : TargetChecks(lowered)) {
    std::string refusal, elsewhere;
    for (const diag::Diagnostic& d : diagnostics.all()) {
      if (d.severity != diag::Severity::kError) continue;
      std::string& slot = d.range.offset == step->range.offset ? refusal : elsewhere;
      if (slot.empty()) slot = d.message;
    }
    if (!refusal.empty()) {
      out += fmt::format("\n- {}: cannot: {}", target, refusal);
    } else if (!elsewhere.empty()) {
      out +=
          fmt::format("\n- {}: {}, but not this flow: {}", target, How(target, *step), elsewhere);
    } else {
      out += fmt::format("\n- {}: {}", target, How(target, *step));
    }
  }
  return out;
}

}  // namespace flowc::lsp
