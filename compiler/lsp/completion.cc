#include <algorithm>

#include "compiler/graph/decorator_docs.h"
#include "compiler/lsp/context.h"
#include "compiler/lsp/features.h"

namespace flowc::lsp {

namespace table = graph::decorator_table;

namespace {

// LSP CompletionItemKind values.
constexpr int kFunction = 3;
constexpr int kVariable = 6;
constexpr int kProperty = 10;
constexpr int kConstant = 21;

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// What follows the name at the cursor (the rest of the name skipped, then spaces).
std::string_view After(std::string_view text, size_t offset) {
  while (offset < text.size() && IsIdentChar(text[offset])) ++offset;
  while (offset < text.size() && text[offset] == ' ') ++offset;
  return text.substr(offset);
}

struct Items {
  const Snapshot& snapshot;
  const CursorContext& context;
  size_t offset;
  nlohmann::json list = nlohmann::json::array();

  void Add(const std::string& label, int kind, const std::string& detail,
           const std::string& documentation, const std::string& text) {
    nlohmann::json item = {
        {"label", label},
        {"kind", kind},
        {"detail", detail},
        {"textEdit",
         {{"range", snapshot.lines.Range(context.word_begin, offset - context.word_begin)},
          {"newText", text}}},
    };
    if (!documentation.empty()) {
      item["documentation"] = {{"kind", "markdown"}, {"value", documentation}};
    }
    list.push_back(std::move(item));
  }
};

bool Contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

void References(const Snapshot& snapshot, Items& items, std::string_view after) {
  std::string close = after.substr(0, 2) == "}}" ? "" : "}}";
  const Analysis* analysis = snapshot.view.analysis;
  if (analysis) {
    for (const Symbol& param : analysis->outline.params) {
      std::string detail = "param" + (param.type.empty() ? "" : ": " + param.type) +
                           (param.default_text.empty() ? "" : " = " + param.default_text);
      items.Add(param.name, kVariable, detail, "", param.name + close);
    }
  }
  items.Add("run_id", kConstant, "the run's identifier", "", "run_id" + close);
  const std::string& step = items.context.step;
  if (const std::shared_ptr<const Analysis>& lowered = snapshot.document.lowered) {
    for (const ir::Step& s : lowered->ir->steps) {
      if (s.name == step && !s.enclosing_foreach.empty()) {
        items.Add("item", kConstant, "the element of the enclosing foreach", "", "item" + close);
      }
    }
  }
  const Symbol* symbol = analysis ? analysis->outline.Find(SymbolKind::kStep, step) : nullptr;
  if (symbol && Contains(symbol->decorators, "parallel")) {
    items.Add("num_nodes", kConstant, "pods in the gang", "", "num_nodes" + close);
    items.Add("node_index", kConstant, "this pod's index in the gang", "", "node_index" + close);
    items.Add("main_addr", kConstant, "the address of node 0", "", "main_addr" + close);
  }
}

}  // namespace

nlohmann::json Completion(const Snapshot& snapshot, size_t offset) {
  CursorContext context = CompletionContext(snapshot.tokens, snapshot.text(), offset);
  Items items{snapshot, context, offset};
  std::string_view after = After(snapshot.text(), offset);
  switch (context.kind) {
    case CursorContext::Kind::kNone:
      break;
    case CursorContext::Kind::kDecoratorName:
      for (const table::DecoratorSpec& spec : table::Table()) {
        items.Add(std::string(spec.name), kFunction, std::string(spec.doc),
                  table::DecoratorMarkdown(spec), std::string(spec.name));
      }
      break;
    case CursorContext::Kind::kArgumentName: {
      const table::DecoratorSpec* spec = table::FindDecorator(context.decorator);
      if (spec == nullptr) break;
      std::string equals = after.substr(0, 1) == "=" ? "" : "=";
      for (const table::ArgSpec& arg : spec->args) {
        if (Contains(context.given, arg.name)) continue;
        items.Add(std::string(arg.name), kProperty, table::ArgumentSummary(arg),
                  table::ArgumentMarkdown(*spec, arg), std::string(arg.name) + equals);
      }
      break;
    }
    case CursorContext::Kind::kNextTarget:
      if (snapshot.view.analysis == nullptr) break;
      for (const Symbol& step : snapshot.view.analysis->outline.steps) {
        // `start` begins the flow and a step cannot follow itself: neither can be a target.
        if (step.name == "start" || step.name == context.step ||
            Contains(context.given, step.name)) {
          continue;
        }
        std::string detail = "step";
        for (const std::string& d : step.decorators) detail += " @" + d;
        items.Add(step.name, kFunction, detail, "", step.name);
      }
      break;
    case CursorContext::Kind::kReference:
      References(snapshot, items, after);
      break;
  }
  return {{"isIncomplete", false}, {"items", std::move(items.list)}};
}

}  // namespace flowc::lsp
