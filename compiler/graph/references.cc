#include "compiler/graph/references.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "compiler/diag/suggest.h"
#include "compiler/parse/strings.h"

namespace flowc::graph {
namespace {

using diag::Code;
using Kind = ast::Value::Kind;

bool IsParam(const Flow& flow, std::string_view name) {
  for (const Param& p : flow.params) {
    if (p.name == name) return true;
  }
  return false;
}

// The literals of a step's run, one for each argument of its command.
std::vector<const ast::Value*> RunLiterals(const ast::Step& step) {
  std::vector<const ast::Value*> literals;
  if (step.runs.empty()) return literals;
  const ast::Value& command = step.runs[0].command;
  if (command.kind == Kind::kString) {
    literals.push_back(&command);
  } else {
    for (const ast::Value& item : command.items) literals.push_back(&item);
  }
  return literals;
}

// Only for a flow without errors: next to an error (a misspelt reference,
// say) the warning would be noise.
void WarnUnusedParams(const Flow& flow, const std::unordered_map<std::string_view, bool>& used,
                      diag::Reporter& report) {
  if (report.diagnostics().HasErrors()) return;
  for (const Param& p : flow.params) {
    if (used.count(p.name) != 0) continue;
    report(Code::kUnusedParam, p.range, fmt::format("param '{}' is never used", p.name))
        .SetHelp(fmt::format("refer to it as '{{{{{}}}}}' in a 'run', or remove it", p.name));
  }
}

}  // namespace

void RunReferenceCheck::Step(size_t i, const ast::Step& ast_step) {
  const graph::Step& step = flow_.steps[i];
  std::vector<const ast::Value*> literals = RunLiterals(ast_step);
  for (size_t c = 0; c < step.command.size() && c < literals.size(); ++c) {
    for (const Segment& seg : step.command[c].segments) {
      if (seg.kind == Segment::Kind::kItem) {
        items_.push_back({i, LiteralRange(report_, *literals[c], seg.offset, seg.length)});
      }
      if (seg.kind != Segment::Kind::kParam || IsParam(flow_, seg.text)) continue;
      auto& d = report_(Code::kUnknownReference,
                        LiteralRange(report_, *literals[c], seg.offset, seg.length),
                        fmt::format("unknown reference '{{{{{}}}}}'", seg.text));
      std::vector<std::string_view> names = {"item", "run_id"};
      for (const Param& p : flow_.params) names.push_back(p.name);
      std::string hint = diag::DidYouMean(seg.text, names);
      d.SetHelp(hint.empty() ? fmt::format("declare it with 'param {}' or write '{{{{item}}}}' "
                                           "or '{{{{run_id}}}}'",
                                           seg.text)
                             : hint);
    }
  }
}

void RunReferenceCheck::Finish(bool bodies_known) {
  for (const ItemReference& item : items_) {
    const graph::Step& step = flow_.steps[item.step];
    if (!bodies_known || !step.enclosing_foreach.empty()) continue;
    report_(Code::kItemOutsideForeach, item.range,
            fmt::format("'{{{{item}}}}' is used outside a foreach body in step '{}'", step.name))
        .SetHelp("'{{item}}' is the element of a foreach; use it in the steps of the body");
  }
  std::unordered_map<std::string_view, bool> used;
  for (const graph::Step& step : flow_.steps) {
    if (!step.foreach_param.empty()) used[step.foreach_param] = true;
    for (const Text& arg : step.command) {
      for (const Segment& seg : arg.segments) {
        if (seg.kind == Segment::Kind::kParam) used[seg.text] = true;
      }
    }
  }
  WarnUnusedParams(flow_, used, report_);
}

diag::SourceRange LiteralRange(const diag::Reporter& report, const ast::Value& literal,
                               size_t offset, size_t length) {
  std::string_view token(report.file().text().data() + literal.range.offset,
                         literal.range.length);
  uint32_t begin = parse::SourceOffsetOf(token, offset);
  return report.file().RangeAt(literal.range.offset + begin, static_cast<uint32_t>(length));
}

}  // namespace flowc::graph
