#include "compiler/lsp/analysis.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "compiler/graph/graph.h"
#include "compiler/graph/templating.h"
#include "compiler/ir/analyze.h"
#include "compiler/parse/strings.h"

namespace flowc::lsp {
namespace {

Span SpanOf(const diag::SourceRange& range) { return Span{range.offset, range.length}; }

std::vector<std::string> DecoratorNames(const std::vector<ast::Decorator>& decorators) {
  std::vector<std::string> names;
  for (const ast::Decorator& d : decorators) names.push_back(d.name.name);
  return names;
}

// The `{{param}}` references of a run string literal, each as the span of the name alone,
// mapped from the decoded text back to where it is written (escapes included).
void AddReferences(const std::string& text, const ast::Value& literal,
                   std::vector<Occurrence>& out) {
  if (literal.kind != ast::Value::Kind::kString) return;
  std::string_view token =
      std::string_view(text).substr(literal.range.offset, literal.range.length);
  for (const graph::Segment& seg : graph::SplitReferences(literal.string).segments) {
    if (seg.kind != graph::Segment::Kind::kParam) continue;
    size_t at = literal.string.find(seg.text, seg.offset + 2);
    uint32_t begin = parse::SourceOffsetOf(token, at);
    uint32_t end = parse::SourceOffsetOf(token, at + seg.text.size());  // the `}` or space after
    out.push_back(
        {SymbolKind::kParam, seg.text, Span{literal.range.offset + begin, end - begin}, false});
  }
}

Outline OutlineOf(const std::string& text, const ast::Flow& flow) {
  Outline outline;
  Span whole = SpanOf(flow.range);
  // The file's rule runs to its end: the flow itself ends at its `}`.
  while (whole.length > 0 && std::isspace(static_cast<unsigned char>(text[whole.end() - 1]))) {
    --whole.length;
  }
  outline.flow = Symbol{SymbolKind::kFlow,
                        flow.name.name,
                        SpanOf(flow.name.range),
                        whole,
                        "",
                        "",
                        DecoratorNames(flow.decorators)};
  std::vector<Occurrence>& occ = outline.occurrences;
  for (const ast::Param& p : flow.params) {
    Symbol param{
        SymbolKind::kParam, p.name.name, SpanOf(p.name.range), SpanOf(p.range), "", "", {}};
    if (p.type) param.type = p.type->name;
    if (p.default_value) {
      param.default_text =
          text.substr(p.default_value->range.offset, p.default_value->range.length);
    }
    outline.params.push_back(std::move(param));
    occ.push_back({SymbolKind::kParam, p.name.name, SpanOf(p.name.range), true});
  }
  for (const ast::Step& s : flow.steps) {
    outline.steps.push_back(Symbol{SymbolKind::kStep, s.name.name, SpanOf(s.name.range),
                                   SpanOf(s.range), "", "", DecoratorNames(s.decorators)});
    occ.push_back({SymbolKind::kStep, s.name.name, SpanOf(s.name.range), true});
    for (const ast::Run& run : s.runs) {
      AddReferences(text, run.command, occ);
      for (const ast::Value& arg : run.command.items) AddReferences(text, arg, occ);
    }
    for (const ast::Next& next : s.nexts) {
      for (const ast::Identifier& target : next.targets) {
        occ.push_back({SymbolKind::kStep, target.name, SpanOf(target.range), false});
      }
      if (next.foreach_param) {
        occ.push_back({SymbolKind::kParam, next.foreach_param->name,
                       SpanOf(next.foreach_param->range), false});
      }
    }
  }
  std::stable_sort(occ.begin(), occ.end(), [](const Occurrence& a, const Occurrence& b) {
    return a.span.offset < b.span.offset;
  });
  return outline;
}

}  // namespace

const Symbol* Outline::Find(SymbolKind kind, const std::string& name) const {
  const std::vector<Symbol>& list = kind == SymbolKind::kParam ? params : steps;
  for (const Symbol& s : list) {
    if (s.name == name) return &s;
  }
  if (kind == SymbolKind::kFlow && flow && flow->name == name) return &*flow;
  return nullptr;
}

std::shared_ptr<const Analysis> Analyze(std::string path, std::string text) {
  auto analysis = std::make_shared<Analysis>();
  analysis->file = std::make_unique<diag::SourceFile>(std::move(path), std::move(text));
  const diag::SourceFile& file = *analysis->file;
  // The stages as `flowc check` runs them; the outline is taken from the AST before the graph
  // consumes it.
  analysis->ir = ir::Analyze(file, analysis->diagnostics, [&](const ast::Flow& ast) {
    analysis->parsed = true;
    analysis->outline = OutlineOf(file.text(), ast);
  });
  analysis->diagnostics.SortBySource();
  return analysis;
}

}  // namespace flowc::lsp
