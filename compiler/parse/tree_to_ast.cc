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

TokenLocator::TokenLocator(const diag::SourceFile& file)
    : file_(file), codepoints_(file.text().size()) {
  const std::string& text = file.text();
  // In ASCII text a code point index is a byte offset: no table needed.
  if (std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; })) return;
  byte_of_codepoint_.reserve(text.size() + 1);
  for (uint32_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) byte_of_codepoint_.push_back(i);
  }
  byte_of_codepoint_.push_back(static_cast<uint32_t>(text.size()));
  codepoints_ = byte_of_codepoint_.size() - 1;
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
  if (start->getStartIndex() < codepoints_) {
    // A token the lexer made knows its line and column (LexerATNSimulator counts them as it
    // consumes, by the same rules as SourceFile: lines end at '\n', columns count code points
    // from 0, after a byte order mark): no search of the line starts. A token without a place
    // in the text (DefaultErrorStrategy::getMissingSymbol) has INVALID_INDEX.
    return diag::SourceRange{begin, end - begin, static_cast<uint32_t>(start->getLine()),
                             static_cast<uint32_t>(start->getCharPositionInLine() + 1)};
  }
  return file_.RangeAt(begin, end - begin);
}

namespace {

using antlr4::tree::ParseTree;
using antlr4::tree::TerminalNode;

// The Builder reads each context's children once, told apart without a cast: each generated
// accessor (ParserRuleContext::getRuleContext, getToken) tries a dynamic_cast on every child.
// It only sees error-free trees, where a child with no children is a token: every rule of
// grammar/FlowParser.g4 matches at least one (tests/unit/parse_tree_test.cc checks it on the ATN).
bool IsToken(const ParseTree* child) { return child->children.empty(); }

size_t TokenType(ParseTree* child) {
  return static_cast<TerminalNode*>(child)->getSymbol()->getType();
}

size_t RuleOf(ParseTree* child) {
  return static_cast<antlr4::ParserRuleContext*>(child)->getRuleIndex();
}

template <typename Context>
Context& As(ParseTree* child) {
  return *static_cast<Context*>(child);
}

class Builder {
 public:
  Builder(const TokenLocator& locator, diag::Reporter& report) : at_(locator), report_(report) {}

  ast::Flow File(FlowParser::FileContext& ctx) {
    ast::Flow flow = Head(ctx);
    flow.range = at_.Range(&ctx);
    for (ParseTree* child : ctx.children) {
      if (!IsToken(child) && RuleOf(child) == FlowParser::RuleFlowItem) {
        AddItem(As<FlowParser::FlowItemContext>(child), flow);
      }
    }
    return flow;
  }

  // The name and the decorators of a flowHead, or of a whole file.
  ast::Flow Head(antlr4::ParserRuleContext& ctx) {
    ast::Flow flow;
    for (ParseTree* child : ctx.children) {
      if (IsToken(child)) {
        if (TokenType(child) == FlowLexer::IDENT) flow.name = Ident(child);
        if (TokenType(child) == FlowLexer::LBRACE) break;  // the items follow
      } else {
        flow.decorators.push_back(Decorator(As<FlowParser::DecoratorContext>(child)));
      }
    }
    return flow;
  }

  void AddItem(FlowParser::FlowItemContext& item, ast::Flow& flow) {
    ParseTree* child = item.children[0];
    if (RuleOf(child) == FlowParser::RuleParam) {
      flow.params.push_back(Param(As<FlowParser::ParamContext>(child)));
    } else {
      flow.steps.push_back(Step(As<FlowParser::StepContext>(child)));
    }
  }

 private:
  ast::Identifier Ident(ParseTree* token) {
    diag::SourceRange range = at_.Range(static_cast<TerminalNode*>(token));
    return ast::Identifier{std::string(Text(range)), range};
  }

  std::string_view Text(const diag::SourceRange& range) const {
    return std::string_view(at_.file().text()).substr(range.offset, range.length);
  }

  ast::Param Param(FlowParser::ParamContext& ctx) {
    ast::Param param;
    param.name = Ident(ctx.children[1]);  // after 'param'
    for (size_t i = 2; i < ctx.children.size(); ++i) {
      ParseTree* child = ctx.children[i];
      if (!IsToken(child)) {
        param.default_value = Value(As<FlowParser::ValueContext>(child));
      } else if (TokenType(child) == FlowLexer::IDENT) {
        param.type = Ident(child);
      }
    }
    param.range = at_.Range(&ctx);
    return param;
  }

  ast::Step Step(FlowParser::StepContext& ctx) {
    ast::Step step;
    step.range = at_.Range(&ctx);
    for (ParseTree* child : ctx.children) {
      if (IsToken(child)) {
        if (TokenType(child) == FlowLexer::IDENT) step.name = Ident(child);
      } else if (RuleOf(child) == FlowParser::RuleDecorator) {
        step.decorators.push_back(Decorator(As<FlowParser::DecoratorContext>(child)));
      } else if (As<FlowParser::StepItemContext>(child).getStart()->getType() == FlowLexer::RUN) {
        // The first token tells the alternative (#runItem, #nextItem).
        auto& run = As<FlowParser::RunItemContext>(child);
        ast::Run r;
        r.command = Command(run.children[1]);
        r.range = at_.Range(&run);
        step.runs.push_back(std::move(r));
      } else {
        step.nexts.push_back(Next(As<FlowParser::NextItemContext>(child)));
      }
    }
    return step;
  }

  // What follows `run`: a string or a list.
  ast::Value Command(ParseTree* child) {
    if (RuleOf(child) == FlowParser::RuleString) return String(As<FlowParser::StringContext>(child));
    return List(As<FlowParser::ListContext>(child));
  }

  ast::Next Next(FlowParser::NextItemContext& ctx) {
    ast::Next n;
    for (ParseTree* child : ctx.children) {
      if (!IsToken(child)) {  // the foreachSource
        ParseTree* source = child->children[0];
        if (IsToken(source)) {
          n.foreach_param = Ident(source);
        } else {
          n.foreach_list = List(As<FlowParser::ListContext>(source));
        }
      } else if (TokenType(child) == FlowLexer::IDENT) {
        n.targets.push_back(Ident(child));
      }
    }
    n.range = at_.Range(&ctx);
    return n;
  }

  ast::Decorator Decorator(FlowParser::DecoratorContext& ctx) {
    ast::Decorator decorator;
    decorator.name = Ident(ctx.children[1]);  // after '@'
    decorator.range = at_.Range(&ctx);
    for (ParseTree* child : ctx.children) {
      if (IsToken(child)) continue;
      // An arg: IDENT '=' value.
      decorator.arguments.push_back(ast::Argument{
          Ident(child->children[0]), Value(As<FlowParser::ValueContext>(child->children[2]))});
    }
    return decorator;
  }

  ast::Value Value(FlowParser::ValueContext& ctx) {
    ParseTree* child = ctx.children[0];
    if (!IsToken(child)) {
      switch (RuleOf(child)) {
        case FlowParser::RuleString: return String(As<FlowParser::StringContext>(child));
        case FlowParser::RuleList: return List(As<FlowParser::ListContext>(child));
        default: return Map(As<FlowParser::MapContext>(child));
      }
    }
    const antlr4::Token* first = ctx.getStart();
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
    std::string_view token = Text(value.range);
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
    for (ParseTree* child : ctx.children) {
      if (!IsToken(child)) value.items.push_back(Value(As<FlowParser::ValueContext>(child)));
    }
    return value;
  }

  ast::Value Map(FlowParser::MapContext& ctx) {
    ast::Value value;
    value.kind = ast::Value::Kind::kMap;
    value.range = at_.Range(&ctx);
    for (ParseTree* entry : ctx.children) {
      if (IsToken(entry)) continue;
      // An entry: string ':' value.
      ast::Value key = String(As<FlowParser::StringContext>(entry->children[0]));
      value.entries.push_back(ast::MapEntry{std::move(key.string), key.range,
                                            Value(As<FlowParser::ValueContext>(entry->children[2]))});
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
