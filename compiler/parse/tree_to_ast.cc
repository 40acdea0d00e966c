#include "compiler/parse/tree_to_ast.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "FlowLexer.h"
#include "compiler/parse/strings.h"

namespace flowc::parse {

using flowc_grammar::FlowLexer;
using flowc_grammar::FlowParser;

TokenLocator::TokenLocator(const diag::SourceFile& file) : file_(file) {
  const std::string& text = file.text();
  // In ASCII text a code point index is a byte offset: no table needed.
  if (std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; })) return;
  byte_of_codepoint_.reserve(text.size() + 1);
  for (uint32_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) byte_of_codepoint_.push_back(i);
  }
  byte_of_codepoint_.push_back(static_cast<uint32_t>(text.size()));
}

diag::SourceRange TokenLocator::Range(const antlr4::Token* start, const antlr4::Token* stop) const {
  auto byte = [&](size_t codepoint) -> uint32_t {
    if (byte_of_codepoint_.empty()) {
      return static_cast<uint32_t>(std::min(codepoint, file_.text().size()));
    }
    return codepoint < byte_of_codepoint_.size() ? byte_of_codepoint_[codepoint]
                                                 : byte_of_codepoint_.back();
  };
  if (start->getType() == antlr4::Token::EOF) return file_.RangeAt(byte(start->getStartIndex()), 0);
  if (stop == nullptr || stop->getStopIndex() < start->getStartIndex()) stop = start;
  uint32_t begin = byte(start->getStartIndex());
  uint32_t end = byte(stop->getStopIndex() + 1);
  return file_.RangeAt(begin, end - begin);
}

namespace {

class Builder {
 public:
  Builder(const TokenLocator& locator, diag::Reporter& report) : at_(locator), report_(report) {}

  ast::Flow File(FlowParser::FileContext& ctx) {
    ast::Flow flow;
    flow.name = Ident(ctx.IDENT());
    flow.range = at_.Range(&ctx);
    for (auto* d : ctx.decorator()) flow.decorators.push_back(Decorator(*d));
    for (auto* item : ctx.flowItem()) AddItem(*item, flow);
    return flow;
  }

  ast::Flow Head(FlowParser::FlowHeadContext& ctx) {
    ast::Flow flow;
    flow.name = Ident(ctx.IDENT());
    for (auto* d : ctx.decorator()) flow.decorators.push_back(Decorator(*d));
    return flow;
  }

  void AddItem(FlowParser::FlowItemContext& item, ast::Flow& flow) {
    // The first token tells the alternative (as in Step, Value): each accessor of a
    // context searches its children with a dynamic_cast apiece.
    if (item.getStart()->getType() == FlowLexer::PARAM) {
      flow.params.push_back(Param(*item.param()));
    } else {
      flow.steps.push_back(Step(*item.step()));
    }
  }

 private:
  ast::Identifier Ident(antlr4::tree::TerminalNode* node) {
    return ast::Identifier{node->getText(), at_.Range(node)};
  }

  ast::Param Param(FlowParser::ParamContext& ctx) {
    ast::Param param;
    auto idents = ctx.IDENT();
    param.name = Ident(idents[0]);
    if (idents.size() > 1) param.type = Ident(idents[1]);
    if (ctx.value() != nullptr) param.default_value = Value(*ctx.value());
    param.range = at_.Range(&ctx);
    return param;
  }

  ast::Step Step(FlowParser::StepContext& ctx) {
    ast::Step step;
    step.name = Ident(ctx.IDENT());
    step.range = at_.Range(&ctx);
    for (auto* d : ctx.decorator()) step.decorators.push_back(Decorator(*d));
    for (auto* item : ctx.stepItem()) {
      // The first token tells the alternative; cheaper than dynamic_cast on
      // every item of a large flow.
      if (item->getStart()->getType() == FlowLexer::RUN) {
        auto* run = static_cast<FlowParser::RunItemContext*>(item);
        ast::Run r;
        r.command = run->string() != nullptr ? String(*run->string()) : List(*run->list());
        r.range = at_.Range(run);
        step.runs.push_back(std::move(r));
      } else {
        auto* next = static_cast<FlowParser::NextItemContext*>(item);
        ast::Next n;
        for (auto* target : next->IDENT()) n.targets.push_back(Ident(target));
        if (auto* source = next->foreachSource()) {
          if (source->IDENT() != nullptr) n.foreach_param = Ident(source->IDENT());
          if (source->list() != nullptr) n.foreach_list = List(*source->list());
        }
        n.range = at_.Range(next);
        step.nexts.push_back(std::move(n));
      }
    }
    return step;
  }

  ast::Decorator Decorator(FlowParser::DecoratorContext& ctx) {
    ast::Decorator decorator;
    decorator.name = Ident(ctx.IDENT());
    decorator.range = at_.Range(&ctx);
    for (auto* arg : ctx.arg()) {
      decorator.arguments.push_back(ast::Argument{Ident(arg->IDENT()), Value(*arg->value())});
    }
    return decorator;
  }

  ast::Value Value(FlowParser::ValueContext& ctx) {
    const antlr4::Token* first = ctx.getStart();
    switch (first->getType()) {
      case FlowLexer::STRING:
      case FlowLexer::RAW_STRING:
        return String(*ctx.string());
      case FlowLexer::LBRACK:
        return List(*ctx.list());
      case FlowLexer::LBRACE:
        return Map(*ctx.map());
      default:
        break;
    }
    ast::Value value;
    value.range = at_.Range(&ctx);
    switch (first->getType()) {
      case FlowLexer::NUMBER:
        Number(first->getText(), value);
        break;
      case FlowLexer::TRUE_:
      case FlowLexer::FALSE_:
        value.kind = ast::Value::Kind::kBool;
        value.bool_value = first->getType() == FlowLexer::TRUE_;
        break;
      default:  // NULL_
        value.kind = ast::Value::Kind::kNull;
        break;
    }
    return value;
  }

  void Number(const std::string& text, ast::Value& value) {
    bool is_float = text.find_first_of(".eE") != std::string::npos;
    errno = 0;
    if (is_float) {
      value.kind = ast::Value::Kind::kFloat;
      value.float_value = std::strtod(text.c_str(), nullptr);
      if (errno == ERANGE || !std::isfinite(value.float_value)) {
        report_(diag::Code::kNumberOutOfRange, value.range,
                fmt::format("number '{}' is out of range", text));
      }
    } else {
      value.kind = ast::Value::Kind::kInt;
      value.int_value = std::strtoll(text.c_str(), nullptr, 10);
      if (errno == ERANGE) {
        report_(diag::Code::kNumberOutOfRange, value.range,
                fmt::format("integer '{}' does not fit in 64 bits", text));
      }
    }
  }

  ast::Value String(FlowParser::StringContext& ctx) {
    ast::Value value;
    value.kind = ast::Value::Kind::kString;
    value.range = at_.Range(&ctx);
    std::string token = ctx.getStart()->getText();
    value.raw = ctx.getStart()->getType() == FlowLexer::RAW_STRING;
    EscapeError error;
    if (auto decoded = DecodeString(token, &error)) {
      value.string = std::move(*decoded);
    } else {
      diag::SourceRange at = report_.file().RangeAt(value.range.offset + error.offset, error.length);
      auto& d = report_(diag::Code::kInvalidEscape, at, error.message);
      if (!error.help.empty()) d.SetHelp(error.help);
    }
    return value;
  }

  ast::Value List(FlowParser::ListContext& ctx) {
    ast::Value value;
    value.kind = ast::Value::Kind::kList;
    value.range = at_.Range(&ctx);
    for (auto* item : ctx.value()) value.items.push_back(Value(*item));
    return value;
  }

  ast::Value Map(FlowParser::MapContext& ctx) {
    ast::Value value;
    value.kind = ast::Value::Kind::kMap;
    value.range = at_.Range(&ctx);
    for (auto* entry : ctx.entry()) {
      ast::Value key = String(*entry->string());
      value.entries.push_back(ast::MapEntry{std::move(key.string), key.range, Value(*entry->value())});
    }
    return value;
  }

  const TokenLocator& at_;
  diag::Reporter& report_;
};

}  // namespace

ast::Flow TreeToAst(FlowParser::FileContext& file, const TokenLocator& locator,
                    diag::Reporter& report) {
  return Builder(locator, report).File(file);
}

ast::Flow HeadToAst(FlowParser::FlowHeadContext& head, const TokenLocator& locator,
                    diag::Reporter& report) {
  return Builder(locator, report).Head(head);
}

void AddItemToAst(FlowParser::FlowItemContext& item, const TokenLocator& locator,
                  diag::Reporter& report, ast::Flow& flow) {
  Builder(locator, report).AddItem(item, flow);
}

}  // namespace flowc::parse

namespace flowc::ast {

const char* KindName(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::kString: return "string";
    case Value::Kind::kInt: return "integer";
    case Value::Kind::kFloat: return "number";
    case Value::Kind::kBool: return "boolean";
    case Value::Kind::kNull: return "null";
    case Value::Kind::kList: return "list";
    case Value::Kind::kMap: return "map";
  }
  return "value";
}

}  // namespace flowc::ast
