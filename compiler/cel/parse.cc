#include "compiler/cel/parse.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <optional>

#include "CelLexer.h"
#include "CelParser.h"
#include "antlr4-runtime.h"
#include "compiler/cel/library.h"
#include "compiler/cel/literals.h"

namespace flowc::cel {
namespace {

using flowc_cel_grammar::CelLexer;
using flowc_cel_grammar::CelParser;

// How deep a rule may nest: brackets and ternaries while parsing (ANTLR recurses through
// every grammar level of each), and the tree's depth while building it (the evaluator
// recurses once a level). Far beyond any CRD's rule; a bound keeps a hostile --schemas file
// from exhausting the stack.
constexpr int kMaxNesting = 100;
constexpr int kMaxDepth = 1000;

std::string Where(const antlr4::Token* token) {
  if (token == nullptr) return "";
  return fmt::format(" at {}:{}", token->getLine(), token->getCharPositionInLine() + 1);
}

class ErrorListener : public antlr4::BaseErrorListener {
 public:
  explicit ErrorListener(std::string* error) : error_(error) {}
  void syntaxError(antlr4::Recognizer*, antlr4::Token* offending, size_t line, size_t column,
                   const std::string&, std::exception_ptr) override {
    if (!error_->empty()) return;  // the first error; the others follow from it
    if (offending == nullptr || offending->getType() == antlr4::Token::EOF) {
      *error_ =
          fmt::format("syntax error at {}:{}: unexpected end of expression", line, column + 1);
      return;
    }
    std::string text = offending->getText();
    if (text.size() > 32) text = text.substr(0, 29) + "...";
    *error_ = fmt::format("syntax error at {}:{}: unexpected '{}'", line, column + 1, text);
  }

 private:
  std::string* error_;
};

bool Literal(CelParser::LiteralContext* ctx, Value* out, std::string* error) {
  if (dynamic_cast<CelParser::BoolTrueContext*>(ctx)) {
    *out = Value::Bool(true);
    return true;
  }
  if (dynamic_cast<CelParser::BoolFalseContext*>(ctx)) {
    *out = Value::Bool(false);
    return true;
  }
  if (dynamic_cast<CelParser::NullContext*>(ctx)) {
    *out = Value::Null();
    return true;
  }
  if (auto* i = dynamic_cast<CelParser::IntContext*>(ctx)) {
    return ParseIntLiteral(i->tok->getText(), i->sign != nullptr, out, error);
  }
  if (auto* u = dynamic_cast<CelParser::UintContext*>(ctx)) {
    return ParseUintLiteral(u->tok->getText(), out, error);
  }
  if (auto* d = dynamic_cast<CelParser::DoubleContext*>(ctx)) {
    return ParseDoubleLiteral(d->tok->getText(), d->sign != nullptr, out, error);
  }
  if (auto* s = dynamic_cast<CelParser::StringContext*>(ctx)) {
    return ParseStringLiteral(s->tok->getText(), out, error);
  }
  auto* b = static_cast<CelParser::BytesContext*>(ctx);
  return ParseStringLiteral(b->tok->getText(), out, error);
}

// Kubernetes' escaping of property names that are CEL keywords or hold characters an
// identifier cannot (k8s.io/apiserver/pkg/cel/escaping.go): `__{keyword}__`, and `__dash__`,
// `__dot__`, `__slash__`, `__underscores__` for '-', '.', '/', "__". Empty when `name` has
// none of them.
std::string Unescape(const std::string& name) {
  static constexpr const char* kReserved[] = {
      "true",     "false",   "null",      "in",       "as",  "break",  "const",
      "continue", "else",    "for",       "function", "if",  "import", "let",
      "loop",     "package", "namespace", "return",   "var", "void",   "while"};
  if (name.size() > 4 && name.compare(0, 2, "__") == 0 &&
      name.compare(name.size() - 2, 2, "__") == 0) {
    std::string inner = name.substr(2, name.size() - 4);
    for (const char* word : kReserved) {
      if (inner == word) return inner;
    }
  }
  static constexpr std::pair<const char*, const char*> kEscapes[] = {
      {"__underscores__", "__"}, {"__dot__", "."}, {"__dash__", "-"}, {"__slash__", "/"}};
  std::string out;
  bool changed = false;
  for (size_t i = 0; i < name.size();) {
    bool matched = false;
    for (const auto& [escape, text] : kEscapes) {
      size_t n = std::char_traits<char>::length(escape);
      if (name.compare(i, n, escape) == 0) {
        out += text;
        i += n;
        matched = changed = true;
        break;
      }
    }
    if (!matched) out += name[i++];
  }
  return changed ? out : "";
}

class Builder {
 public:
  explicit Builder(Program* program) : program_(program) {}
  std::string error;

  std::unique_ptr<Expr> Build(CelParser::ExprContext* ctx) {
    Depth d(this);
    if (!d.ok) return nullptr;
    if (ctx->op == nullptr) return Or(ctx->e);
    return Node(Expr::kTernary, Or(ctx->e), Or(ctx->e1), Build(ctx->e2));
  }

 private:
  struct Depth {
    explicit Depth(Builder* b) : builder(b) {
      ok = ++builder->depth_ <= kMaxDepth;
      if (!ok) builder->Fail(fmt::format("expression nests more than {} levels deep", kMaxDepth));
    }
    ~Depth() { --builder->depth_; }
    Builder* builder;
    bool ok;
  };

  std::nullptr_t Fail(std::string message) {
    if (error.empty()) error = std::move(message);
    return nullptr;
  }

  template <typename... Args>
  std::unique_ptr<Expr> Node(Expr::Kind kind, Args... args) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    (e->args.push_back(std::move(args)), ...);
    for (const auto& a : e->args)
      if (a == nullptr) return nullptr;
    return e;
  }

  std::unique_ptr<Expr> Call(Fn fn, std::vector<std::unique_ptr<Expr>> args) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::kCall;
    e->fn = fn;
    for (auto& a : args)
      if (a == nullptr) return nullptr;
    e->args = std::move(args);
    return e;
  }

  std::unique_ptr<Expr> Or(CelParser::ConditionalOrContext* ctx) {
    auto ands = ctx->conditionalAnd();
    if (ands.size() == 1) return And(ands[0]);
    auto e = std::make_unique<Expr>();
    e->kind = Expr::kOr;
    for (auto* a : ands) {
      e->args.push_back(And(a));
      if (e->args.back() == nullptr) return nullptr;
    }
    return e;
  }

  std::unique_ptr<Expr> And(CelParser::ConditionalAndContext* ctx) {
    auto rels = ctx->relation();
    if (rels.size() == 1) return Relation(rels[0]);
    auto e = std::make_unique<Expr>();
    e->kind = Expr::kAnd;
    for (auto* r : rels) {
      e->args.push_back(Relation(r));
      if (e->args.back() == nullptr) return nullptr;
    }
    return e;
  }

  std::unique_ptr<Expr> Relation(CelParser::RelationContext* ctx) {
    Depth d(this);
    if (!d.ok) return nullptr;
    if (ctx->calc() != nullptr) return Calc(ctx->calc());
    Fn fn = Fn::kNone;
    switch (ctx->op->getType()) {
      case CelLexer::LESS:
        fn = Fn::kLt;
        break;
      case CelLexer::LESS_EQUALS:
        fn = Fn::kLe;
        break;
      case CelLexer::GREATER_EQUALS:
        fn = Fn::kGe;
        break;
      case CelLexer::GREATER:
        fn = Fn::kGt;
        break;
      case CelLexer::EQUALS:
        fn = Fn::kEq;
        break;
      case CelLexer::NOT_EQUALS:
        fn = Fn::kNe;
        break;
      default:
        fn = Fn::kIn;
        break;
    }
    std::vector<std::unique_ptr<Expr>> args;
    args.push_back(Relation(ctx->relation(0)));
    args.push_back(Relation(ctx->relation(1)));
    return Call(fn, std::move(args));
  }

  std::unique_ptr<Expr> Calc(CelParser::CalcContext* ctx) {
    Depth d(this);
    if (!d.ok) return nullptr;
    if (ctx->unary() != nullptr) return Unary(ctx->unary());
    Fn fn = Fn::kNone;
    switch (ctx->op->getType()) {
      case CelLexer::STAR:
        fn = Fn::kMul;
        break;
      case CelLexer::SLASH:
        fn = Fn::kDiv;
        break;
      case CelLexer::PERCENT:
        fn = Fn::kMod;
        break;
      case CelLexer::PLUS:
        fn = Fn::kAdd;
        break;
      default:
        fn = Fn::kSub;
        break;
    }
    std::vector<std::unique_ptr<Expr>> args;
    args.push_back(Calc(ctx->calc(0)));
    args.push_back(Calc(ctx->calc(1)));
    return Call(fn, std::move(args));
  }

  // An even run of '!' or '-' cancels out, as in cel-go's parser.
  std::unique_ptr<Expr> Unary(CelParser::UnaryContext* ctx) {
    if (auto* m = dynamic_cast<CelParser::MemberExprContext*>(ctx)) return Member(m->member());
    if (auto* n = dynamic_cast<CelParser::LogicalNotContext*>(ctx)) {
      auto operand = Member(n->member());
      if (n->ops.size() % 2 == 0) return operand;
      return Node(Expr::kNot, std::move(operand));
    }
    auto* neg = static_cast<CelParser::NegateContext*>(ctx);
    auto operand = Member(neg->member());
    if (neg->ops.size() % 2 == 0) return operand;
    std::vector<std::unique_ptr<Expr>> args;
    args.push_back(std::move(operand));
    return Call(Fn::kNeg, std::move(args));
  }

  // The name of a bare identifier, when `ctx` is nothing else: a macro's variable.
  static std::optional<std::string> BareIdent(CelParser::ExprContext* ctx) {
    if (ctx->op != nullptr) return std::nullopt;
    auto ands = ctx->e->conditionalAnd();
    if (ands.size() != 1) return std::nullopt;
    auto rels = ands[0]->relation();
    if (rels.size() != 1 || rels[0]->calc() == nullptr) return std::nullopt;
    auto* unary = rels[0]->calc()->unary();
    auto* m = unary == nullptr ? nullptr : dynamic_cast<CelParser::MemberExprContext*>(unary);
    auto* p = m == nullptr ? nullptr : dynamic_cast<CelParser::PrimaryExprContext*>(m->member());
    auto* id = p == nullptr ? nullptr : dynamic_cast<CelParser::IdentContext*>(p->primary());
    if (id == nullptr || id->op != nullptr || id->leadingDot != nullptr) return std::nullopt;
    return id->id->getText();
  }

  std::vector<std::unique_ptr<Expr>> Args(CelParser::ExprListContext* list) {
    std::vector<std::unique_ptr<Expr>> out;
    if (list == nullptr) return out;
    for (auto* e : list->e) out.push_back(Build(e));
    return out;
  }

  std::unique_ptr<Expr> Member(CelParser::MemberContext* ctx) {
    Depth d(this);
    if (!d.ok) return nullptr;
    if (auto* p = dynamic_cast<CelParser::PrimaryExprContext*>(ctx)) return Primary(p->primary());
    if (auto* s = dynamic_cast<CelParser::SelectContext*>(ctx)) {
      auto e = Node(Expr::kSelect, Member(s->member()));
      if (e == nullptr) return nullptr;
      e->name = s->id->getText();
      e->unescaped = Unescape(e->name);
      e->optional = s->opt != nullptr;
      return e;
    }
    if (auto* i = dynamic_cast<CelParser::IndexContext*>(ctx)) {
      auto e = Node(Expr::kIndex, Member(i->member()), Build(i->index));
      if (e == nullptr) return nullptr;
      e->optional = i->opt != nullptr;
      return e;
    }
    auto* call = static_cast<CelParser::MemberCallContext*>(ctx);
    std::string name = call->id->getText();
    size_t argc = call->args == nullptr ? 0 : call->args->e.size();
    if (auto macro = MacroOf(name, argc)) return Macro(call, *macro);
    // optional.of(x) and its kin: a namespace, not a receiver.
    if (auto* p = dynamic_cast<CelParser::PrimaryExprContext*>(call->member())) {
      auto* id = dynamic_cast<CelParser::IdentContext*>(p->primary());
      if (id != nullptr && id->op == nullptr && id->id->getText() == "optional" &&
          Lookup("optional") < 0) {
        return Global("optional." + name, call->args, call->id);
      }
    }
    // The receiver first, so that errors are reported in the order they are written.
    std::vector<std::unique_ptr<Expr>> args;
    args.push_back(Member(call->member()));
    if (args.back() == nullptr) return nullptr;
    std::string why;
    Fn fn = Resolve(name, true, argc, &why);
    if (fn == Fn::kNone) return Fail(why + Where(call->id));
    for (auto& a : Args(call->args)) args.push_back(std::move(a));
    auto e = Call(fn, std::move(args));
    if (e == nullptr) return nullptr;
    e->name = name;
    if (!AttachRegex(e.get(), call->id)) return nullptr;
    return e;
  }

  // matches() with a constant pattern: a bad pattern fails the rule's compilation, as cel-go's
  // checker does, rather than each evaluation.
  bool AttachRegex(Expr* e, antlr4::Token* at) {
    if (e->fn != Fn::kMatches || e->args.size() != 2) return true;
    const Expr& pattern = *e->args[1];
    if (pattern.kind != Expr::kConst || pattern.constant.kind != Value::kString) return true;
    std::string why;
    if (!CheckRegex(pattern.constant.s, &why)) {
      Fail(why + Where(at));
      return false;
    }
    return true;
  }

  static std::optional<Expr::Macro> MacroOf(const std::string& name, size_t argc) {
    if (argc == 2 && name == "all") return Expr::Macro::kAll;
    if (argc == 2 && name == "exists") return Expr::Macro::kExists;
    if (argc == 2 && name == "exists_one") return Expr::Macro::kExistsOne;
    if (argc == 2 && name == "map") return Expr::Macro::kMap;
    if (argc == 3 && name == "map") return Expr::Macro::kMapFilter;
    if (argc == 2 && name == "filter") return Expr::Macro::kFilter;
    return std::nullopt;
  }

  std::unique_ptr<Expr> Macro(CelParser::MemberCallContext* call, Expr::Macro macro) {
    auto exprs = call->args->e;
    std::optional<std::string> var = BareIdent(exprs[0]);
    if (!var) {
      return Fail(
          fmt::format("{}() takes a variable name first{}", call->id->getText(), Where(call->id)));
    }
    auto e = std::make_unique<Expr>();
    e->kind = Expr::kMacro;
    e->macro = macro;
    e->name = call->id->getText();
    e->args.push_back(Member(call->member()));
    e->slot = 2 + static_cast<int>(scope_.size());
    program_->slots = std::max(program_->slots, e->slot + 1);
    scope_.emplace_back(*var, e->slot);
    for (size_t k = 1; k < exprs.size(); ++k) e->args.push_back(Build(exprs[k]));
    scope_.pop_back();
    for (const auto& a : e->args)
      if (a == nullptr) return nullptr;
    return e;
  }

  int Lookup(const std::string& name) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
      if (it->first == name) return it->second;
    }
    return -1;
  }

  std::unique_ptr<Expr> Global(const std::string& name, CelParser::ExprListContext* list,
                               antlr4::Token* at) {
    size_t argc = list == nullptr ? 0 : list->e.size();
    if (name == "has") {
      if (argc != 1) return Fail(fmt::format("has() takes one argument{}", Where(at)));
      auto arg = Build(list->e[0]);
      if (arg == nullptr) return nullptr;
      if (arg->kind != Expr::kSelect || arg->optional) {
        return Fail(
            fmt::format("invalid argument to has() macro: it takes a field selection, "
                        "such as has(self.field){}",
                        Where(at)));
      }
      arg->kind = Expr::kHas;
      return arg;
    }
    std::string why;
    Fn fn = Resolve(name, false, argc, &why);
    if (fn == Fn::kNone) return Fail(why + Where(at));
    auto e = Call(fn, Args(list));
    if (e == nullptr) return nullptr;
    e->name = name;
    if (!AttachRegex(e.get(), at)) return nullptr;
    return e;
  }

  std::unique_ptr<Expr> Primary(CelParser::PrimaryContext* ctx) {
    if (auto* n = dynamic_cast<CelParser::NestedContext*>(ctx)) return Build(n->e);
    if (auto* id = dynamic_cast<CelParser::IdentContext*>(ctx)) return Ident(id);
    if (auto* l = dynamic_cast<CelParser::CreateListContext*>(ctx)) {
      auto e = std::make_unique<Expr>();
      e->kind = Expr::kList;
      if (l->elems != nullptr) {
        for (auto* item : l->elems->elems) {
          e->args.push_back(Build(item->e));
          e->optional_entries.push_back(item->opt != nullptr);
          if (e->args.back() == nullptr) return nullptr;
        }
      }
      return e;
    }
    if (auto* m = dynamic_cast<CelParser::CreateMapContext*>(ctx)) {
      auto e = std::make_unique<Expr>();
      e->kind = Expr::kMap;
      if (m->entries != nullptr) {
        for (size_t k = 0; k < m->entries->keys.size(); ++k) {
          e->args.push_back(Build(m->entries->keys[k]->e));
          e->args.push_back(Build(m->entries->values[k]));
          e->optional_entries.push_back(m->entries->keys[k]->opt != nullptr);
          if (e->args[2 * k] == nullptr || e->args[2 * k + 1] == nullptr) return nullptr;
        }
      }
      return e;
    }
    auto* lit = static_cast<CelParser::ConstantLiteralContext*>(ctx)->literal();
    auto e = std::make_unique<Expr>();
    e->kind = Expr::kConst;
    std::string why;
    if (!Literal(lit, &e->constant, &why)) return Fail(why + Where(lit->getStart()));
    return e;
  }

  std::unique_ptr<Expr> Ident(CelParser::IdentContext* ctx) {
    std::string name = ctx->id->getText();
    if (ctx->op != nullptr) return Global(name, ctx->args, ctx->id);
    auto e = std::make_unique<Expr>();
    if (int slot = Lookup(name); slot >= 0 && ctx->leadingDot == nullptr) {
      e->kind = Expr::kVar;
      e->slot = slot;
      e->name = name;
      return e;
    }
    if (name == "self" || name == "oldSelf") {
      e->kind = Expr::kVar;
      e->slot = name == "self" ? 0 : 1;
      e->name = name;
      if (e->slot == 1) program_->uses_old_self = true;
      return e;
    }
    for (const char* type :
         {"int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type"}) {
      if (name == type) {
        e->kind = Expr::kConst;
        e->constant = Value::Type(name);
        return e;
      }
    }
    return Fail(fmt::format("undeclared reference to '{}'{}", name, Where(ctx->id)));
  }

  Program* program_;
  std::vector<std::pair<std::string, int>> scope_;
  int depth_ = 0;
};

// Rejects what would crash or mislead ANTLR before it parses: a character the lexer has no
// token for, and nesting past kMaxNesting.
bool CheckTokens(antlr4::CommonTokenStream& tokens, std::string* error) {
  tokens.fill();
  int nesting = 0;
  for (antlr4::Token* t : tokens.getTokens()) {
    switch (t->getType()) {
      case CelLexer::ERROR_CHAR:
        *error = fmt::format("syntax error{}: unexpected character '{}'", Where(t), t->getText());
        return false;
      case CelLexer::LPAREN:
      case CelLexer::LBRACKET:
      case CelLexer::LBRACE:
      case CelLexer::QUESTIONMARK:
        if (++nesting > kMaxNesting) {
          *error =
              fmt::format("expression nests more than {} levels deep{}", kMaxNesting, Where(t));
          return false;
        }
        break;
      case CelLexer::RPAREN:
      case CelLexer::RBRACKET:
      case CelLexer::RBRACE:
      case CelLexer::COLON:
        if (nesting > 0) --nesting;
        break;
      default:
        break;
    }
  }
  return true;
}

}  // namespace

std::unique_ptr<Program> Parse(std::string_view rule, std::string* error) {
  error->clear();
  std::string text(rule);
  if (!ValidUtf8(text)) {
    *error = "the expression is not valid UTF-8";
    return nullptr;
  }
  try {
    antlr4::ANTLRInputStream input(text);
    CelLexer lexer(&input);
    lexer.removeErrorListeners();
    antlr4::CommonTokenStream tokens(&lexer);
    if (!CheckTokens(tokens, error)) return nullptr;
    CelParser parser(&tokens);
    ErrorListener listener(error);
    parser.removeErrorListeners();
    parser.addErrorListener(&listener);
    CelParser::StartContext* start = parser.start();
    if (!error->empty()) return nullptr;
    auto program = std::make_unique<Program>();
    Builder builder(program.get());
    program->root = builder.Build(start->e);
    if (program->root == nullptr) {
      *error = builder.error.empty() ? "cannot compile the expression" : builder.error;
      return nullptr;
    }
    return program;
  } catch (const std::exception& e) {
    *error = fmt::format("cannot parse the expression: {}", e.what());
    return nullptr;
  }
}

}  // namespace flowc::cel
