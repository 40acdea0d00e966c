// The Renderer's split flows: a flow over Argo's limits, its DAGs nested and its templates
// spread over several WorkflowTemplates as split.h plans them (renderer.h). The templates of
// steps are the same leaves renderer.cc writes for any flow; only the DAGs that reach them, and
// which WorkflowTemplate each template goes in, are a split flow's own.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "backends/argo/layout.h"
#include "backends/argo/renderer.h"
#include "backends/argo/split.h"
#include "backends/argo/templating.h"
#include "backends/k8s/yaml_scalar.h"

namespace flowc::backends::argo {
namespace {

using k8s::EmitString;
using k8s::Key;

// Discards its text: a YAML::Emitter over it only counts the bytes.
class Discard final : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize size) override { return size; }
};

}  // namespace

void Renderer::SplitWorkflowTemplates(const DagPlan& plan, const std::vector<TemplateUnit>& units,
                                      const std::vector<size_t>& part_of_unit, size_t parts) {
  plan_ = &plan;
  part_of_.clear();
  for (size_t u = 0; u < units.size(); ++u) {
    for (const std::string* name : TemplateNames(units[u])) part_of_[*name] = part_of_unit[u];
  }
  for (size_t part = 1; part <= parts; ++part) {
    current_part_ = part % parts;  // the further ones first, then the main one
    BeginWorkflowTemplate(current_part_);
    for (size_t u = 0; u < units.size(); ++u) {
      if (part_of_unit[u] == current_part_) Unit(units[u]);
    }
    EndWorkflowTemplate();
    if (current_part_ != 0) out_ << YAML::BeginDoc;
  }
}

std::vector<size_t> Renderer::MeasureUnits(const DagPlan& plan,
                                           const std::vector<TemplateUnit>& units, size_t* header) {
  plan_ = &plan;
  measure_ = true;
  BeginWorkflowTemplate(0);
  EndWorkflowTemplate();
  *header = out_.size();
  out_ << YAML::BeginDoc;
  BeginWorkflowTemplate(0);
  std::vector<size_t> sizes;
  sizes.reserve(units.size());
  for (const TemplateUnit& unit : units) {
    const size_t before = out_.size();
    Unit(unit);
    sizes.push_back(out_.size() - before);
  }
  EndWorkflowTemplate();
  return sizes;
}

std::vector<const std::string*> Renderer::TemplateNames(const TemplateUnit& unit) const {
  switch (unit.kind) {
    case TemplateUnit::Kind::kScopeDag:
      return {unit.scope ? &layout_.body_name(*unit.scope) : &layout_.entry()};
    case TemplateUnit::Kind::kNestedDag:
      return {&plan_->nested()[unit.index].name};
    case TemplateUnit::Kind::kStep:
      break;
  }
  if (!BoundsGang(flow_.steps[unit.index])) return {&layout_.step_name(unit.index)};
  return {&layout_.step_name(unit.index), &layout_.gang_name(unit.index),
          &layout_.delete_name(unit.index)};
}

// One template of a split flow: a scope's DAG, a nested DAG, or a step's template(s).
void Renderer::Unit(const TemplateUnit& unit) {
  switch (unit.kind) {
    case TemplateUnit::Kind::kScopeDag:
      PlannedDag(unit.scope ? layout_.body_name(*unit.scope) : layout_.entry(), unit.scope,
                 plan_->root(unit.scope), std::nullopt);
      return;
    case TemplateUnit::Kind::kNestedDag: {
      const NestedDag& nested = plan_->nested()[unit.index];
      PlannedDag(nested.name, nested.scope, nested.entries, unit.index);
      return;
    }
    case TemplateUnit::Kind::kStep:
      Leaf(unit.index);
      return;
  }
}

// A DAG of a split flow: the tasks `entries` of scope `scope`, in the nested DAG `nested` or
// in the scope's own. Each task waits for what its steps wait for in this DAG (split.h).
void Renderer::PlannedDag(const std::string& name, std::optional<size_t> scope,
                          const std::vector<DagEntry>& entries, std::optional<size_t> nested) {
  out_ << YAML::BeginMap;
  Key(out_, "name");
  out_ << YAML::Value;
  EmitString(out_, name);
  ItemInputs(scope);
  Key(out_, "dag");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "tasks");
  out_ << YAML::Value << YAML::BeginSeq;
  for (const DagEntry& entry : entries) {
    const std::string& task = plan_->Name(entry);
    out_ << YAML::BeginMap;
    Key(out_, "name");
    out_ << YAML::Value;
    EmitString(out_, task);
    TemplateOf(task);
    Depends(plan_->Depends(nested, entry));
    if (entry.kind == DagEntry::Kind::kBody) {
      ItemArgument(ExpandedItem());
      Items(entry.index);
    } else if (scope) {
      ItemArgument(ItemInput());
    }
    out_ << YAML::EndMap;
  }
  out_ << YAML::EndSeq << YAML::EndMap;
  out_ << YAML::EndMap;
}

// `template`, or `templateRef` to the WorkflowTemplate that holds it when that is another
// (workflow/templateresolution/context.go: a name is looked up in the WorkflowTemplate of
// the template that names it, a templateRef in the one it names).
void Renderer::TemplateOf(const std::string& name) {
  const size_t part = measure_ ? SIZE_MAX : part_of_.at(name);
  if (part == current_part_) {
    Key(out_, "template");
    out_ << YAML::Value;
    EmitString(out_, name);
    return;
  }
  Key(out_, "templateRef");
  out_ << YAML::Value << YAML::BeginMap;
  Key(out_, "name");
  out_ << YAML::Value;
  EmitString(out_, measure_ ? std::string(kMaxObjectName, 'x') : PartName(flow_, part));
  Key(out_, "template");
  out_ << YAML::Value;
  EmitString(out_, name);
  out_ << YAML::EndMap;
}

std::optional<size_t> Partition(const ir::Flow& flow, const Layout& layout, const DagPlan& plan,
                                const std::vector<TemplateUnit>& units, const EmitOptions& options,
                                std::vector<size_t>& part_of, diag::Reporter& report) {
  Discard discard;
  std::ostream stream(&discard);
  YAML::Emitter counted(stream);
  Renderer measure(flow, layout, counted, options.argo_version);
  size_t header = 0;
  std::vector<size_t> sizes = measure.MeasureUnits(plan, units, &header);
  if (!measure.ReportUnsafeLiterals(report)) return std::nullopt;
  header += kMaxObjectName;  // a further WorkflowTemplate's longer name
  size_t part = 0;
  size_t templates = 0;
  size_t bytes = header;
  for (size_t u = 0; u < units.size(); ++u) {
    const size_t count = TemplateCount(flow, units[u]);
    if (templates > 0 &&
        (templates + count > kMaxTemplates || bytes + sizes[u] > kMaxTemplateBytes)) {
      ++part;
      templates = 0;
      bytes = header;
    }
    part_of[u] = part;
    templates += count;
    bytes += sizes[u];
  }
  return part + 1;
}

}  // namespace flowc::backends::argo
