// What the lexer reads, made cheaper than ANTLR 4.9's defaults without changing a token.
//
// ANTLRInputStream copies the whole file into UTF-32 (four bytes a character, and more while
// it converts: 54 MB for a 2.7 MB flow), and LexerATNSimulator looks up every character's DFA
// edge in a hash map under a reader-writer lock (two mutex round trips and a condition-variable
// signal a character: 16 % of a parse). Utf8Stream reads the file where it lies;
// FastFlowLexer keeps the same DFA edges in a flat table as well. Private to
// compiler/parse.
#ifndef FLOWC_PARSE_FAST_INPUT_H_
#define FLOWC_PARSE_FAST_INPUT_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "FlowLexer.h"
#include "antlr4-runtime.h"

namespace flowc::parse {

// The lexer's input alphabet in classes: characters that every transition of the lexer's ATN
// (its default mode) matches alike, so that the lexer's DFA takes the same edge on each. The
// DFA has an edge for each character a state has seen, and each new edge costs the runtime a
// closure over the state's configurations (LexerATNSimulator::computeTargetState, thousands of
// instructions): every process builds its DFA afresh. Read through the class's representative,
// its smallest character, a state needs one edge a class.
struct CharClasses {
  std::array<uint32_t, 128> ascii;  // the representative of each ASCII character
  // The representative of every code point from 128 on, when they are all one class; else
  // kNone, and they are read as they are.
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t non_ascii = kNone;
};

// The classes of the default mode of a lexer's ATN. '\n' is a class of its own: the simulator
// counts lines by it (LexerATNSimulator::consume).
CharClasses ClassesOf(const antlr4::atn::ATN& atn);

// A CharStream over UTF-8 text, with ANTLRInputStream's contract (runtime/src/
// ANTLRInputStream.cpp in antlr4 4.9: LA, consume, seek, getText) and its indexes, which count
// code points. A leading byte order mark is skipped, as ANTLRInputStream drops it, but still
// counted, so an index is the same code point of the file that TokenLocator maps.
class Utf8Stream final : public antlr4::CharStream {
 public:
  // `text` is valid UTF-8 and outlives the stream. `byte_of_codepoint` is the byte offset of
  // each code point and then of the end (TokenLocator's table), or empty when `text` is ASCII.
  Utf8Stream(std::string_view text, const std::vector<uint32_t>& byte_of_codepoint);

  void consume() override;
  size_t LA(ssize_t i) override;
  ssize_t mark() override { return -1; }  // the whole text is at hand
  void release(ssize_t) override {}
  size_t index() override { return position_; }
  void seek(size_t index) override;
  size_t size() override { return size_; }
  std::string getSourceName() const override { return UNKNOWN_SOURCE_NAME; }
  std::string getText(const antlr4::misc::Interval& interval) override;
  std::string toString() const override;

  // From now on LA(1) answers a character's representative in `classes` (which outlives the
  // stream): what FastFlowLexer's simulator reads. Its text and every other LA are the file's.
  void UseClasses(const CharClasses* classes) {
    ascii_map_ = classes->ascii.data();
    non_ascii_ = classes->non_ascii;
  }

  // The bytes of code points [start, end).
  std::string_view Bytes(size_t start, size_t end) const {
    return text_.substr(ByteOf(start), ByteOf(end) - ByteOf(start));
  }

 private:
  size_t ByteOf(size_t codepoint) const {
    return byte_of_codepoint_.empty() ? codepoint : byte_of_codepoint_[codepoint];
  }
  size_t CodePointAt(size_t index) const;

  std::string_view text_;
  const std::vector<uint32_t>& byte_of_codepoint_;
  size_t size_;       // in code points
  bool ascii_;        // a code point is a byte
  size_t first_ = 0;  // 1 after a byte order mark
  size_t position_ = 0;
  // LA(1)'s answer for an ASCII character and for any other (CharClasses::kNone: itself).
  static const std::array<uint32_t, 128> kIdentity;
  const uint32_t* ascii_map_ = kIdentity.data();
  uint32_t non_ascii_ = CharClasses::kNone;
};

// The generated lexer, reading its input in classes (CharClasses), on a LexerATNSimulator that
// also keeps the DFA's ASCII edges in a flat table, per mode and state, read without a lock
// (flowc lexes on one thread). The table is
// filled where the runtime adds an edge (addDFAEdge), so it always agrees with the DFA's own
// edge maps, which the runtime still fills and reads on every other path.
//
// nextToken is Lexer::nextToken (runtime/src/Lexer.cpp in antlr4 4.9) with the simulator at
// hand: the runtime finds it with a dynamic_cast (Recognizer::getInterpreter) three times a
// token and twice more in the token's constructor (getLine, getCharPositionInLine), and wraps
// each token in a std::function (antlrcpp::finally) to release a mark that Utf8Stream does not
// need. It also drops WS and COMMENT, which grammar/FlowLexer.g4 makes without `-> skip`: the
// skip action cost more than the whole token (LexerActionExecutor::execute). And it gives the
// grammar's IDENT and STRING the types that grammar/FlowLexer.g4 leaves to it: a keyword's, and
// UNTERMINATED_STRING to a string without its closing quote. The tokens the parser sees are
// those of separate keyword and unterminated-string rules (parse_input_test).
class FastFlowLexer : public flowc_grammar::FlowLexer {
 public:
  // `keep_trivia`: also return WS and COMMENT tokens (parse::Lex, for the formatter and the
  // language server); the parser's lexer drops them.
  explicit FastFlowLexer(Utf8Stream* input, bool keep_trivia = false);

  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override;
  size_t getCharPositionInLine() override;

 private:
  Utf8Stream* input_;
  bool keep_trivia_;
  antlr4::atn::LexerATNSimulator* simulator_;  // _interpreter, owned by Recognizer
};

}  // namespace flowc::parse

#endif  // FLOWC_PARSE_FAST_INPUT_H_
