#include "compiler/parse/parse.h"

#include <algorithm>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "FlowLexer.h"
#include "FlowParser.h"
#include "antlr4-runtime.h"
#include "compiler/parse/dfa_lexer.h"
#include "compiler/parse/fast_input.h"
#include "compiler/parse/strings.h"
#include "compiler/parse/tree_to_ast.h"

namespace flowc::parse {
namespace {

using flowc_grammar::FlowLexer;
using flowc_grammar::FlowParser;

// How a token type reads in a message: keywords and punctuation quoted,
// the rest by what they are.
std::string TokenName(size_t type, const antlr4::dfa::Vocabulary& vocabulary) {
  switch (type) {
    case antlr4::Token::EOF: return "end of file";
    case FlowLexer::IDENT: return "identifier";
    case FlowLexer::STRING:
    case FlowLexer::RAW_STRING: return "string";
    case FlowLexer::NUMBER: return "number";
    default: return vocabulary.getLiteralName(type);
  }
}

std::string Found(const antlr4::Token* token) {
  if (token == nullptr || token->getType() == antlr4::Token::EOF) return "end of file";
  std::string text = token->getText();
  if (text.size() > 32) text = text.substr(0, 29) + "...";
  return fmt::format("'{}'", text);
}

std::string ExpectedList(const antlr4::misc::IntervalSet& expected,
                         const antlr4::dfa::Vocabulary& vocabulary) {
  std::vector<std::string> names;
  for (ssize_t type : expected.toList()) {
    std::string name = TokenName(static_cast<size_t>(type), vocabulary);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  if (names.empty()) return "";
  std::string out = names[0];
  for (size_t i = 1; i < names.size(); ++i) {
    out += (i + 1 == names.size() ? " or " : ", ") + names[i];
  }
  return out;
}

// Sends ANTLR's syntax errors to the diagnostics engine, in our words.
class ErrorListener : public antlr4::BaseErrorListener {
 public:
  ErrorListener(const TokenLocator& locator, diag::Reporter& report)
      : at_(locator), report_(report) {}

  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending, size_t, size_t,
                   const std::string&, std::exception_ptr) override {
    // Lexical errors were reported from the token stream already.
    if (offending != nullptr && (offending->getType() == FlowLexer::ERROR_CHAR ||
                                 offending->getType() == FlowLexer::UNTERMINATED_STRING)) {
      return;
    }
    auto* parser = dynamic_cast<antlr4::Parser*>(recognizer);
    std::string expected;
    if (parser != nullptr) expected = ExpectedList(parser->getExpectedTokens(), parser->getVocabulary());
    std::string message = expected.empty()
                              ? fmt::format("unexpected {}", Found(offending))
                              : fmt::format("expected {}, found {}", expected, Found(offending));
    if (offending->getType() == antlr4::Token::EOF) {
      ReportAtEnd(parser, std::move(message));
      return;
    }
    auto& d = report_(diag::Code::kSyntax, at_.Range(offending), std::move(message));
    antlr4::Token* previous = parser != nullptr ? Previous(parser, offending) : nullptr;
    if (previous != nullptr && previous->getType() == FlowLexer::RUN &&
        offending->getType() == FlowLexer::IDENT) {
      std::string_view line = at_.file().Line(at_.Range(offending).line);
      std::string_view rest = line.substr(line.find(offending->getText()));
      while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.remove_suffix(1);
      d.SetHelp(fmt::format("write the command in double quotes, e.g. run \"{}\"", rest));
    }
  }

 private:
  static antlr4::Token* Previous(antlr4::Parser* parser, antlr4::Token* token) {
    auto* stream = dynamic_cast<antlr4::CommonTokenStream*>(parser->getTokenStream());
    for (size_t i = token->getTokenIndex(); i-- > 0;) {
      antlr4::Token* t = stream->get(i);
      if (t->getChannel() == antlr4::Token::DEFAULT_CHANNEL) return t;
    }
    return nullptr;
  }

  // At the end of the file, point just past the last token, and at the
  // brace that was never closed.
  void ReportAtEnd(antlr4::Parser* parser, std::string message) {
    auto* stream = dynamic_cast<antlr4::CommonTokenStream*>(parser->getTokenStream());
    antlr4::Token* last = nullptr;
    std::vector<antlr4::Token*> open;
    for (antlr4::Token* t : stream->getTokens()) {
      if (t->getType() == antlr4::Token::EOF) break;
      last = t;
      if (t->getType() == FlowLexer::LBRACE) open.push_back(t);
      if (t->getType() == FlowLexer::RBRACE && !open.empty()) open.pop_back();
    }
    diag::SourceRange at = at_.Range(stream->get(stream->size() - 1));
    if (last != nullptr) {
      diag::SourceRange end = at_.Range(last);
      at = at_.file().RangeAt(end.offset + end.length - 1, 0);
      at.column += 1;
      at.offset += 1;
    }
    auto& d = report_(diag::Code::kSyntax, at, std::move(message));
    if (!open.empty()) d.AddNote(at_.Range(open.back()), "to match this '{'");
  }

 public:

 private:
  const TokenLocator& at_;
  diag::Reporter& report_;
};

// Deeper nesting than this is no real flow, and would only exhaust the
// parser's stack (the parser recurses once per level).
constexpr int kMaxNesting = 64;

// Reports ERROR_CHAR and UNTERMINATED_STRING tokens, and nesting too deep to
// parse; false when the parser must not run at all.
bool CheckTokens(antlr4::CommonTokenStream& tokens, const TokenLocator& at,
                 diag::Reporter& report) {
  int depth = 0;
  size_t last_error_line = 0;
  for (antlr4::Token* token : tokens.getTokens()) {
    size_t type = token->getType();
    if (type == FlowLexer::LBRACK || type == FlowLexer::LBRACE || type == FlowLexer::LPAREN) {
      if (++depth > kMaxNesting) {
        report(diag::Code::kSyntax, at.Range(token),
               fmt::format("values nest deeper than {} levels", kMaxNesting));
        return false;
      }
    } else if (type == FlowLexer::RBRACK || type == FlowLexer::RBRACE ||
               type == FlowLexer::RPAREN) {
      depth = std::max(0, depth - 1);
    } else if (type == FlowLexer::ERROR_CHAR) {
      // One stray character per line is enough to say what is wrong.
      if (token->getLine() == last_error_line) continue;
      last_error_line = token->getLine();
      std::string text = token->getText();
      auto& d = report(diag::Code::kInvalidCharacter, at.Range(token),
                       fmt::format("unexpected character '{}'", text));
      if (text == "'") d.SetHelp("strings are written in double quotes");
      if (text == "-") d.SetHelp("names are written with '_', as in 'my_step'");
      if (text == ";") d.SetHelp("statements need no terminator; remove the ';'");
    } else if (type == FlowLexer::UNTERMINATED_STRING) {
      report(diag::Code::kUnterminatedString, at.Range(token), "unterminated string")
          .SetHelp("close it with '\"' on the same line, or use \"\"\"...\"\"\" for text that "
                   "spans lines");
    }
  }
  return true;
}

// The lexer of the item-by-item parse: it gives up, with the parse, at the first token that
// CheckTokens would report (a stray character, an unterminated string, nesting deeper than
// kMaxNesting, which it meets before the parser recurses that deep).
class StoppingLexer final : public DfaLexer {
 public:
  using DfaLexer::DfaLexer;

  std::unique_ptr<antlr4::Token> nextToken() override {
    std::unique_ptr<antlr4::Token> token = DfaLexer::nextToken();
    switch (token->getType()) {
      case FlowLexer::LBRACK:
      case FlowLexer::LBRACE:
      case FlowLexer::LPAREN:
        if (++depth_ > kMaxNesting) throw antlr4::ParseCancellationException();
        break;
      case FlowLexer::RBRACK:
      case FlowLexer::RBRACE:
      case FlowLexer::RPAREN:
        depth_ = std::max(0, depth_ - 1);
        break;
      case FlowLexer::ERROR_CHAR:
      case FlowLexer::UNTERMINATED_STRING:
        throw antlr4::ParseCancellationException();
      default:
        break;
    }
    return token;
  }

 private:
  int depth_ = 0;
};

// The token stream of the item-by-item parse: UnbufferedTokenStream, numbering each token
// without the dynamic_cast to WritableToken that its add makes (runtime/src/
// UnbufferedTokenStream.cpp): every token DfaLexer makes is a CommonToken, made by
// CommonTokenFactory::DEFAULT. (The base constructor adds the first token with its own add.)
class ItemTokenStream final : public antlr4::UnbufferedTokenStream {
 public:
  explicit ItemTokenStream(DfaLexer* lexer) : UnbufferedTokenStream(lexer) {}

  // The next token, when it is in the buffer: most calls, which the base class answers only
  // after its sync.
  antlr4::Token* LT(ssize_t i) override {
    if (i == 1 && _p < _tokens.size()) return _tokens[_p].get();
    return UnbufferedTokenStream::LT(i);
  }

 protected:
  void add(std::unique_ptr<antlr4::Token> token) override {
    static_cast<antlr4::CommonToken*>(token.get())
        ->setTokenIndex(getBufferStartIndex() + _tokens.size());
    _tokens.push_back(std::move(token));
  }
};

// The generated parser, entering a rule without the dynamic_cast of Parser::enterRule
// (addContextToParseTree, runtime/src/Parser.cpp): the parent of a context the generated code
// makes is the context of the rule that invoked it (_ctx), or nothing for the entry rule.
// Room for a context's children comes in one allocation, not one a doubling: a step, a
// decorator have about eight, and the tree of one item lives only until the next.
class FastFlowParser final : public FlowParser {
 public:
  using FlowParser::FlowParser;

  void enterRule(antlr4::ParserRuleContext* context, size_t state, size_t) override {
    context->children.reserve(8);
    setState(state);
    _ctx = context;
    _ctx->start = _input->LT(1);
    if (_buildParseTrees && _ctx->parent != nullptr) {
      static_cast<antlr4::ParserRuleContext*>(_ctx->parent)->addChild(_ctx);
    }
    if (!_parseListeners.empty()) triggerEnterRuleEvent();
  }
};

// The parse of a well-formed file, one flow item at a time: the tokens come from an
// unbuffered stream, marked while an item is parsed and turned into AST, and the item's parse
// tree is freed before the next (ANTLR keeps every token and tree node of a whole-file parse
// until it ends: about 12 KB a step). Returns nullopt, having reported nothing, at the first
// thing the whole-file parse would report (a bad token, a syntax error, a bad escape or
// number): Parse then parses the whole file again, and that says it all, as before.
std::optional<ast::Flow> ParseItemByItem(const diag::SourceFile& file,
                                         const TokenLocator& locator) {
  diag::Diagnostics scratch;
  diag::Reporter report(scratch, file);
  Utf8Stream input(file.text(), locator.byte_of_codepoint());
  StoppingLexer lexer(&input);
  try {
    // Inside: the stream reads its first token as it is made.
    ItemTokenStream tokens(&lexer);
    FastFlowParser parser(&tokens);
    parser.removeErrorListeners();
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::SLL);
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
    ssize_t mark = tokens.mark();
    FlowParser::FlowHeadContext* head = parser.flowHead();
    ast::Flow flow = HeadToAst(*head, locator, report);
    antlr4::CommonToken start(head->getStart());  // the flow's range starts there
    tokens.release(mark);
    parser.getTreeTracker().reset();
    for (size_t next = tokens.LA(1);
         next == FlowLexer::PARAM || next == FlowLexer::STEP || next == FlowLexer::AT;
         next = tokens.LA(1)) {
      mark = tokens.mark();
      AddItemToAst(*parser.flowItem(), locator, report, flow);
      tokens.release(mark);
      parser.getTreeTracker().reset();
    }
    FlowParser::FlowEndContext* end = parser.flowEnd();
    // As the whole file's range: from its first token to the end (a rule that matched EOF
    // stops at EOF: ANTLR's Parser::exitRule).
    flow.range = locator.Range(&start, end->getStop());
    if (!scratch.all().empty()) return std::nullopt;
    return flow;
  } catch (const antlr4::ParseCancellationException&) {
    return std::nullopt;
  }
}

}  // namespace

std::vector<Token> Lex(const diag::SourceFile& file) {
  std::vector<Token> out;
  std::string_view text = file.text();
  std::optional<size_t> bad = FindInvalidUtf8(text);
  // The lexer reads valid UTF-8 only: it lexes the text before the first invalid byte.
  diag::SourceFile valid(file.path(), std::string(text.substr(0, bad.value_or(text.size()))));
  const diag::SourceFile& lexed = bad ? valid : file;
  TokenLocator locator(lexed);
  Utf8Stream input(lexed.text(), locator.byte_of_codepoint());
  DfaLexer lexer(&input, /*keep_trivia=*/true);
  static_assert(FlowLexer::FLOW == 1 && FlowLexer::ERROR_CHAR == 27,
                "Token::Kind follows the token types of grammar/FlowLexer.g4");
  for (std::unique_ptr<antlr4::Token> t = lexer.nextToken(); t->getType() != antlr4::Token::EOF;
       t = lexer.nextToken()) {
    auto type = static_cast<int>(t->getType());
    Token::Kind kind = type == FlowLexer::WS        ? Token::Kind::kWhitespace
                       : type == FlowLexer::COMMENT ? Token::Kind::kComment
                       : type == FlowLexer::ERROR_CHAR
                           ? Token::Kind::kError
                           : static_cast<Token::Kind>(type - FlowLexer::FLOW);
    out.push_back(Token{kind, locator.Range(t.get())});
  }
  if (bad) {
    auto at = static_cast<uint32_t>(*bad);
    out.push_back(Token{Token::Kind::kError,
                        file.RangeAt(at, static_cast<uint32_t>(text.size()) - at)});
  }
  return out;
}

std::optional<ast::Flow> Parse(const diag::SourceFile& file, diag::Diagnostics& diagnostics) {
  diag::Reporter report(diagnostics, file);
  if (auto bad = FindInvalidUtf8(file.text())) {
    report(diag::Code::kInvalidUtf8, file.RangeAt(static_cast<uint32_t>(*bad), 1),
           "the file is not valid UTF-8 text")
        .SetHelp("flow files are UTF-8; save the file as UTF-8");
    return std::nullopt;
  }
  TokenLocator locator(file);
  if (std::optional<ast::Flow> flow = ParseItemByItem(file, locator)) return flow;

  // The whole file at once, to report what is wrong with it.
  size_t errors_before = diagnostics.error_count();
  Utf8Stream input(file.text(), locator.byte_of_codepoint());
  DfaLexer lexer(&input);
  antlr4::CommonTokenStream tokens(&lexer);
  tokens.fill();
  if (!CheckTokens(tokens, locator, report)) return std::nullopt;

  FastFlowParser parser(&tokens);
  parser.removeErrorListeners();
  // The grammar is SLL; try the fast mode first and fall back to full LL
  // with error recovery (and reporting) only when it fails.
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::SLL);
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  FlowParser::FileContext* tree = nullptr;
  try {
    tree = parser.file();
  } catch (const antlr4::ParseCancellationException&) {
    tree = nullptr;
  }
  if (tree == nullptr) {
    tokens.seek(0);
    parser.reset();
    ErrorListener listener(locator, report);
    parser.addErrorListener(&listener);
    parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::LL);
    tree = parser.file();
    parser.removeErrorListeners();
  }
  if (diagnostics.error_count() > errors_before) return std::nullopt;
  ast::Flow flow = TreeToAst(*tree, locator, report);
  if (diagnostics.error_count() > errors_before) return std::nullopt;
  return flow;
}

}  // namespace flowc::parse
