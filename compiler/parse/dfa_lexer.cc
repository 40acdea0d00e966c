#include "compiler/parse/dfa_lexer.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "FlowLexer.h"
#include "flow_lexer_dfa.inc"  // generated: namespace flowc::parse::lexer_dfa

namespace flowc::parse {
namespace {

using flowc_grammar::FlowLexer;

// The code point at `at` in valid UTF-8 (Parse and Lex check it first), and its length.
uint32_t Decode(std::string_view text, size_t at, size_t* length) {
  auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(text[i])); };
  uint32_t lead = byte(at);
  if (lead < 0xE0) {
    *length = 2;
    return (lead & 0x1F) << 6 | (byte(at + 1) & 0x3F);
  }
  if (lead < 0xF0) {
    *length = 3;
    return (lead & 0x0F) << 12 | (byte(at + 1) & 0x3F) << 6 | (byte(at + 2) & 0x3F);
  }
  *length = 4;
  return (lead & 0x07) << 18 | (byte(at + 1) & 0x3F) << 12 | (byte(at + 2) & 0x3F) << 6 |
         (byte(at + 3) & 0x3F);
}

uint8_t ClassOf(uint32_t code_point) {
  const uint32_t* first = std::upper_bound(std::begin(lexer_dfa::kRangeFirst),
                                           std::end(lexer_dfa::kRangeFirst), code_point);
  return lexer_dfa::kRangeClass[first - std::begin(lexer_dfa::kRangeFirst) - 1];
}

// The type of an IDENT or STRING the grammar matched (grammar/FlowLexer.g4 says why it leaves
// these to code). A string is terminated when its last quote is not the opening one and not
// escaped: a backslash not itself escaped always starts an escape, so the quote is escaped when
// an odd run of backslashes precedes it.
size_t Retype(size_t type, std::string_view text) {
  if (type == FlowLexer::STRING) {
    if (text.size() < 2 || text.back() != '"') return FlowLexer::UNTERMINATED_STRING;
    size_t quote = text.size() - 1;
    size_t escape = quote;
    while (escape > 1 && text[escape - 1] == '\\') --escape;
    if ((quote - escape) % 2 != 0) return FlowLexer::UNTERMINATED_STRING;
    return type;
  }
  for (const lexer_dfa::Keyword& keyword : lexer_dfa::kKeywords) {
    if (text == keyword.word) return keyword.type;
  }
  return type;
}

}  // namespace

DfaLexer::DfaLexer(Utf8Stream* input, bool keep_trivia)
    : input_(input),
      keep_trivia_(keep_trivia),
      text_(input->text()),
      byte_(input->ByteOf(input->index())),
      index_(input->index()) {}

size_t DfaLexer::Match() {
  // LexerATNSimulator::execATN on the whole DFA: follow edges while there are any, remembering
  // the last state where a token may end; the token ends there (failOrAccept).
  size_t state = 0;
  size_t type = 0;
  size_t end_byte = byte_;
  size_t end_index = index_;
  for (size_t at = byte_, index = index_; at < text_.size(); ++index) {
    auto c = static_cast<unsigned char>(text_[at]);
    size_t length = 1;
    uint8_t c_class = c < 0x80 ? lexer_dfa::kAsciiClass[c] : ClassOf(Decode(text_, at, &length));
    state = lexer_dfa::kNext[state][c_class];
    if (state == lexer_dfa::kDead) break;
    at += length;
    if (lexer_dfa::kAccept[state] != 0) {
      type = lexer_dfa::kAccept[state];
      end_byte = at;
      end_index = index + 1;
    }
  }
  // Lines and columns as LexerATNSimulator::consume counts them: a line at each '\n', a column
  // at each other code point.
  std::string_view token = text_.substr(byte_, end_byte - byte_);
  size_t newline = token.rfind('\n');
  if (newline == std::string_view::npos) {
    column_ += end_index - index_;
  } else {
    line_ += static_cast<size_t>(std::count(token.begin(), token.end(), '\n'));
    // The code points after the last newline: its bytes but for UTF-8's continuation bytes.
    column_ = static_cast<size_t>(std::count_if(token.begin() + newline + 1, token.end(), [](char b) {
      return (static_cast<unsigned char>(b) & 0xC0) != 0x80;
    }));
  }
  byte_ = end_byte;
  index_ = end_index;
  return type;
}

std::unique_ptr<antlr4::Token> DfaLexer::nextToken() {
  auto* factory = antlr4::CommonTokenFactory::DEFAULT.get();
  for (;;) {
    size_t start = index_, line = line_, column = column_, start_byte = byte_;
    if (byte_ >= text_.size()) {
      // Lexer::emitEOF.
      return factory->create({this, input_}, antlr4::Token::EOF, "",
                             antlr4::Token::DEFAULT_CHANNEL, index_, index_ - 1, line_, column_);
    }
    size_t type = Match();
    if (type == 0) {
      // Where ANTLR's lexer would report LexerNoViableAltException and skip a character: never,
      // as `ERROR_CHAR : .` takes any character; an ERROR_CHAR all the same if it did.
      type = FlowLexer::ERROR_CHAR;
      size_t length = 1;
      if (static_cast<unsigned char>(text_[byte_]) >= 0x80) Decode(text_, byte_, &length);
      byte_ += length;
      ++index_;
      ++column_;
    }
    if ((type == FlowLexer::WS || type == FlowLexer::COMMENT) && !keep_trivia_) continue;
    if (type == FlowLexer::IDENT || type == FlowLexer::STRING) {
      type = Retype(type, text_.substr(start_byte, byte_ - start_byte));
    }
    // Lexer::emit: the token's text is read from the input when asked for.
    return factory->create({this, input_}, type, "", antlr4::Token::DEFAULT_CHANNEL, start,
                           index_ - 1, line, column);
  }
}

}  // namespace flowc::parse
