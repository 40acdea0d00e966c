#include "compiler/driver/graph_view.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/ir/neuron_claims.h"

namespace flowc::driver {
namespace {

// A DRA claim of the pod: the request of the template flowc wrote for it (an object beside the
// pods), or the name of the cluster's own template (`@neuron(template=...)`).
std::string ClaimDetail(const ir::Flow& flow, const ir::PodResourceClaim& claim) {
  for (const ir::Object& object : flow.objects) {
    const auto* t = std::get_if<ir::ResourceClaimTemplate>(&object.spec);
    if (t != nullptr && object.name == claim.template_name) return ir::NeuronRequestSummary(*t);
  }
  return fmt::format("{} from template {}", claim.name, claim.template_name);
}

// What a node says besides its name: accelerators (device plugins' extended resources, then DRA
// claims) and gang size.
std::string Details(const ir::Flow& flow, const ir::Step& step) {
  std::string out;
  for (const auto& [name, count] : step.pod.resources->limits) {
    if (name.find('/') != std::string::npos) out += fmt::format("\\n{} x{}", name, count);
  }
  for (const ir::PodResourceClaim& claim : *step.pod.resource_claims) {
    out += "\\n" + ClaimDetail(flow, claim);
  }
  if (step.parallel) out += fmt::format("\\nparallel x{}", step.parallel->nodes);
  return out;
}

std::string ForeachLabel(const ir::Step& step) {
  if (!step.foreach->param.empty()) return "foreach " + step.foreach->param;
  return fmt::format("foreach [{}]", step.foreach->items.size());
}

}  // namespace

std::string GraphToDot(const ir::Flow& flow) {
  std::string out = fmt::format("digraph {} {{\n  rankdir=TB;\n  node [shape=box];\n",
                                nlohmann::json(flow.name).dump());
  for (const ir::Step& step : flow.steps) {
    // JSON string syntax is a valid dot ID for our names and escapes.
    std::string label = nlohmann::json(step.name).dump();
    label.insert(label.size() - 1, Details(flow, step));
    out += fmt::format("  {} [label={}];\n", nlohmann::json(step.name).dump(), label);
  }
  for (const ir::Step& step : flow.steps) {
    for (size_t next : step.next) {
      std::string attributes;
      if (step.foreach) attributes = fmt::format(" [label={}, style=bold]", nlohmann::json(ForeachLabel(step)).dump());
      out += fmt::format("  {} -> {}{};\n", nlohmann::json(step.name).dump(),
                         nlohmann::json(flow.steps[next].name).dump(), attributes);
    }
  }
  out += "}\n";
  return out;
}

std::string GraphToMermaid(const ir::Flow& flow) {
  std::string out = "flowchart TD\n";
  for (const ir::Step& step : flow.steps) {
    std::string details = Details(flow, step);
    std::string label = step.name;
    for (size_t at = details.find("\\n"); at != std::string::npos; at = details.find("\\n")) {
      details.replace(at, 2, "<br/>");
    }
    // Ids get a prefix: `end` is a Mermaid keyword.
    out += fmt::format("  s_{}[\"{}{}\"]\n", step.name, label, details);
  }
  for (const ir::Step& step : flow.steps) {
    for (size_t next : step.next) {
      if (step.foreach) {
        out += fmt::format("  s_{} ==>|{}| s_{}\n", step.name, ForeachLabel(step), flow.steps[next].name);
      } else {
        out += fmt::format("  s_{} --> s_{}\n", step.name, flow.steps[next].name);
      }
    }
  }
  return out;
}

}  // namespace flowc::driver
