#include <fmt/format.h>

#include "compiler/graph/decorator_docs.h"
#include "compiler/graph/templating.h"
#include "compiler/lsp/context.h"
#include "compiler/lsp/features.h"
#include "compiler/lsp/pod_summary.h"

namespace flowc::lsp {

namespace table = graph::decorator_table;

namespace {

std::string ParamMarkdown(const Snapshot& snapshot, const std::string& name) {
  const Symbol* param = snapshot.view.analysis->outline.Find(SymbolKind::kParam, name);
  if (param == nullptr) return "";
  std::string type = param->type;
  if (type.empty() && snapshot.document.lowered) {  // inferred: the IR knows it
    for (const ir::Param& p : snapshot.document.lowered->ir->params) {
      if (p.name == name) type = graph::ParamTypeName(p.type);
    }
  }
  std::string out = fmt::format("**param {}**", name);
  if (!type.empty()) out += ": " + type;
  out += param->default_text.empty() ? "\n\nrequired: no default, given when the run is submitted"
                                     : fmt::format("\n\ndefault: `{}`", param->default_text);
  return out;
}

// `{{item}}`, `{{run_id}}` and the gang references.
std::string BuiltInReference(const std::string& name) {
  if (name == "item") return "**{{item}}**: the element of the foreach whose body holds this step";
  if (name == "run_id") return "**{{run_id}}**: the identifier of the run";
  if (name == "num_nodes")
    return "**{{num_nodes}}**: the number of pods of this @parallel gang ($(FLOWC_NUM_NODES))";
  if (name == "node_index")
    return "**{{node_index}}**: this pod's index in its @parallel gang, from 0 "
           "($(FLOWC_NODE_INDEX))";
  if (name == "main_addr")
    return "**{{main_addr}}**: the address of node 0 of this @parallel gang ($(FLOWC_MAIN_ADDR))";
  return "";
}

nlohmann::json Result(const Snapshot& snapshot, const std::string& markdown, size_t begin,
                      size_t end) {
  if (markdown.empty()) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", markdown}}},
          {"range", snapshot.lines.Range(begin, end - begin)}};
}

}  // namespace

nlohmann::json Hover(const Snapshot& snapshot, size_t offset) {
  size_t index = TokenAt(snapshot.tokens, offset);
  if (index == snapshot.tokens.size()) return nullptr;
  const parse::Token& token = snapshot.tokens[index];
  size_t begin = token.range.offset, end = begin + token.range.length;
  std::string name;
  if (token.kind == parse::Token::Kind::kString || token.kind == parse::Token::Kind::kRawString) {
    if (!ReferenceAt(token, snapshot.text(), offset, &name, &begin, &end)) return nullptr;
    std::string markdown = BuiltInReference(name);
    if (markdown.empty() && snapshot.view.analysis) markdown = ParamMarkdown(snapshot, name);
    return Result(snapshot, markdown, begin, end);
  }
  std::string decorator, argument;
  if (DecoratorAt(snapshot.tokens, snapshot.text(), index, &decorator, &argument)) {
    const table::DecoratorSpec* spec = table::FindDecorator(decorator);
    if (spec == nullptr) return nullptr;
    if (argument.empty()) return Result(snapshot, table::DecoratorMarkdown(*spec), begin, end);
    const table::ArgSpec* arg = table::FindArg(*spec, argument);
    return arg ? Result(snapshot, table::ArgumentMarkdown(*spec, *arg), begin, end) : nullptr;
  }
  Span span;
  const Occurrence* occurrence = snapshot.OccurrenceAt(offset, &span);
  if (occurrence == nullptr) return nullptr;
  std::string markdown;
  if (occurrence->kind == SymbolKind::kParam) {
    markdown = ParamMarkdown(snapshot, occurrence->name);
  } else if (const std::shared_ptr<const Analysis>& lowered = snapshot.document.lowered) {
    markdown = PodSummary(*lowered, occurrence->name);
    if (!markdown.empty() && lowered != snapshot.document.current) {
      markdown += "\n\n(from the last version of this file that checked)";
    }
  }
  if (markdown.empty()) {
    markdown = fmt::format("**step {}**\n\nno pod yet: the flow does not check", occurrence->name);
  }
  return Result(snapshot, markdown, span.offset, span.end());
}

}  // namespace flowc::lsp
