#include "compiler/parse/fast_input.h"

#include <algorithm>
#include <array>
#include <map>

#include "compiler/diag/source.h"

namespace flowc::parse {

namespace {

// In an unnamed namespace on purpose: ANTLR 4.9 finds the lexer's simulator with a
// dynamic_cast five times a token (Recognizer::getInterpreter), and a type of internal linkage
// spares that cast libstdc++'s strcmp of type names (type_info::operator==).
class FastLexerSimulator final : public antlr4::atn::LexerATNSimulator {
 public:
  // Takes over `lexer`'s DFA (a static of the generated lexer, shared by its instances).
  FastLexerSimulator(antlr4::Lexer* lexer, std::vector<antlr4::dfa::DFA>& dfa);

  size_t match(antlr4::CharStream* input, size_t mode) override;

 protected:
  antlr4::dfa::DFAState* getExistingTargetState(antlr4::dfa::DFAState* s, size_t t) override;
  using antlr4::atn::LexerATNSimulator::addDFAEdge;
  void addDFAEdge(antlr4::dfa::DFAState* p, size_t t, antlr4::dfa::DFAState* q) override;

 private:
  using Edges = std::array<antlr4::dfa::DFAState*, MAX_DFA_EDGE + 1>;
  // [mode][state number]: the edges of the DFA this simulator runs, shared by every simulator
  // that runs it, as the DFA is.
  std::vector<std::vector<Edges>>& edges_;
};

// The type of an IDENT or STRING the grammar matched (grammar/FlowLexer.g4 says why it leaves
// these to code). A keyword is every token of the vocabulary whose literal name is a quoted word
// (the rules of the lexer's KEYWORDS mode); a string is terminated when its last quote is not
// the opening one and not escaped: a backslash not itself escaped always starts an escape, so
// the quote is escaped when an odd run of backslashes precedes it.
size_t Retype(size_t type, std::string_view text, const antlr4::dfa::Vocabulary& vocabulary) {
  using flowc_grammar::FlowLexer;
  if (type == FlowLexer::STRING) {
    if (text.size() < 2 || text.back() != '"') return FlowLexer::UNTERMINATED_STRING;
    size_t quote = text.size() - 1;
    size_t escape = quote;
    while (escape > 1 && text[escape - 1] == '\\') --escape;
    if ((quote - escape) % 2 != 0) return FlowLexer::UNTERMINATED_STRING;
    return type;
  }
  static const std::vector<std::pair<std::string, size_t>> keywords = [&vocabulary] {
    std::vector<std::pair<std::string, size_t>> out;
    for (size_t t = 1; t <= vocabulary.getMaxTokenType(); ++t) {
      std::string name = vocabulary.getLiteralName(t);
      if (name.size() > 2 && std::all_of(name.begin() + 1, name.end() - 1, [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
          })) {
        out.emplace_back(name.substr(1, name.size() - 2), t);
      }
    }
    return out;
  }();
  for (const auto& [word, keyword] : keywords) {
    if (text == word) return keyword;
  }
  return type;
}

}  // namespace

CharClasses ClassesOf(const antlr4::atn::ATN& atn) {
  // The sets that the default mode's transitions match (atn/Transition.h: label(); a
  // NotSetTransition's is the set it excludes, a WildcardTransition's is empty, as it matches
  // every character alike). A rule's stop state leads back to where the rule was invoked
  // (ATNDeserializer adds those epsilon transitions), so following targets reaches them all.
  std::vector<antlr4::misc::IntervalSet> labels;
  std::vector<bool> seen(atn.states.size());
  std::vector<antlr4::atn::ATNState*> todo{atn.modeToStartState.at(0)};
  seen[todo[0]->stateNumber] = true;
  while (!todo.empty()) {
    antlr4::atn::ATNState* state = todo.back();
    todo.pop_back();
    for (antlr4::atn::Transition* transition : state->transitions) {
      if (!transition->isEpsilon()) labels.push_back(transition->label());
      if (!seen[transition->target->stateNumber]) {
        seen[transition->target->stateNumber] = true;
        todo.push_back(transition->target);
      }
    }
  }
  labels.push_back(antlr4::misc::IntervalSet::of('\n'));
  // Ranges between the sets' bounds; a range's signature is the sets that hold it.
  constexpr uint32_t kEnd = 0x110000;  // past the last code point (Lexer::MAX_CHAR_VALUE)
  std::vector<uint32_t> bounds{0, kEnd};
  for (const antlr4::misc::IntervalSet& label : labels) {
    for (const antlr4::misc::Interval& interval : label.getIntervals()) {
      bounds.push_back(static_cast<uint32_t>(interval.a));
      bounds.push_back(static_cast<uint32_t>(interval.b) + 1);
    }
  }
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  std::vector<std::string> signature(bounds.size() - 1, std::string(labels.size(), '0'));
  for (size_t l = 0; l < labels.size(); ++l) {
    for (const antlr4::misc::Interval& interval : labels[l].getIntervals()) {
      auto range = std::lower_bound(bounds.begin(), bounds.end(), interval.a) - bounds.begin();
      for (; bounds[range] <= static_cast<uint32_t>(interval.b); ++range) signature[range][l] = '1';
    }
  }
  // Each range's representative: the first character of the first range of its signature.
  CharClasses classes;
  std::map<std::string, uint32_t> first;
  for (size_t range = 0; range + 1 < bounds.size(); ++range) {
    uint32_t representative = first.emplace(signature[range], bounds[range]).first->second;
    for (uint32_t c = bounds[range]; c < std::min<uint32_t>(bounds[range + 1], 128); ++c) {
      classes.ascii[c] = representative;
    }
    if (bounds[range] <= 128 && bounds[range + 1] == kEnd) classes.non_ascii = representative;
  }
  return classes;
}

const std::array<uint32_t, 128> Utf8Stream::kIdentity = [] {
  std::array<uint32_t, 128> identity{};
  for (uint32_t c = 0; c < identity.size(); ++c) identity[c] = c;
  return identity;
}();

Utf8Stream::Utf8Stream(std::string_view text, const std::vector<uint32_t>& byte_of_codepoint)
    : text_(text),
      byte_of_codepoint_(byte_of_codepoint),
      size_(byte_of_codepoint.empty() ? text.size() : byte_of_codepoint.size() - 1),
      ascii_(byte_of_codepoint.empty()) {
  if (text_.substr(0, diag::kByteOrderMark.size()) == diag::kByteOrderMark) first_ = position_ = 1;
}

size_t Utf8Stream::CodePointAt(size_t index) const {
  size_t begin = ByteOf(index);
  auto byte = static_cast<unsigned char>(text_[begin]);
  if (byte < 0x80) return byte;
  size_t end = ByteOf(index + 1);
  return antlrcpp::utf8_to_utf32(text_.data() + begin, text_.data() + end).at(0);
}

void Utf8Stream::consume() {
  if (position_ >= size_) throw antlr4::IllegalStateException("cannot consume EOF");
  ++position_;
}

size_t Utf8Stream::LA(ssize_t i) {
  // The current character: nearly every call (LexerATNSimulator::execATN and consume ask for
  // LA(1) once a character each).
  if (i == 1 && position_ < size_) {
    if (ascii_) return ascii_map_[static_cast<unsigned char>(text_[position_])];
    auto byte = static_cast<unsigned char>(text_[byte_of_codepoint_[position_]]);
    if (byte < 0x80) return ascii_map_[byte];
    if (non_ascii_ != CharClasses::kNone) return non_ascii_;
    return CodePointAt(position_);
  }
  if (i == 0) return 0;  // undefined
  // LA(-1) is the character before the current one, LA(1) the current one.
  auto at = static_cast<ssize_t>(position_) + (i < 0 ? i : i - 1);
  if (at < static_cast<ssize_t>(first_) || at >= static_cast<ssize_t>(size_)) {
    return antlr4::IntStream::EOF;
  }
  auto index = static_cast<size_t>(at);
  if (ascii_) return static_cast<unsigned char>(text_[index]);
  return CodePointAt(index);
}

void Utf8Stream::seek(size_t index) {
  position_ = std::clamp(index, first_, size_);
}

std::string Utf8Stream::getText(const antlr4::misc::Interval& interval) {
  if (interval.a < 0 || interval.b < 0) return "";
  auto start = std::max(static_cast<size_t>(interval.a), first_);
  size_t stop = std::min(static_cast<size_t>(interval.b), size_ - 1);
  if (start >= size_ || stop < start) return "";
  size_t begin = ByteOf(start);
  return std::string(text_.substr(begin, ByteOf(stop + 1) - begin));
}

std::string Utf8Stream::toString() const {
  return std::string(text_.substr(ByteOf(first_)));
}

FastLexerSimulator::FastLexerSimulator(antlr4::Lexer* lexer, std::vector<antlr4::dfa::DFA>& dfa)
    : LexerATNSimulator(lexer, lexer->getATN(), dfa, [] () -> antlr4::atn::PredictionContextCache& {
        // The lexer's ATN configurations carry no parser context: the cache stays empty.
        static antlr4::atn::PredictionContextCache cache;
        return cache;
      }()),
      edges_([&]() -> std::vector<std::vector<Edges>>& {
        static std::map<const std::vector<antlr4::dfa::DFA>*, std::vector<std::vector<Edges>>>
            tables;
        std::vector<std::vector<Edges>>& table = tables[&dfa];
        table.resize(dfa.size());
        return table;
      }()) {}

size_t FastLexerSimulator::match(antlr4::CharStream* input, size_t mode) {
  // LexerATNSimulator::match (runtime/src/atn/LexerATNSimulator.cpp) without the mark it sets
  // on the input and the std::function (antlrcpp::finally) that releases it: Utf8Stream needs
  // no mark. The last accept state (_prevAccept) is cleared by the base class's reset, the one
  // way to it from here; reset also rewinds the line and column, which are kept.
  size_t line = _line;
  size_t column = _charPositionInLine;
  LexerATNSimulator::reset();
  _line = line;
  _charPositionInLine = column;
  _mode = mode;
  _startIndex = input->index();
  antlr4::dfa::DFA& dfa = _decisionToDFA[mode];
  return dfa.s0 == nullptr ? matchATN(input) : execATN(input, dfa.s0);
}

antlr4::dfa::DFAState* FastLexerSimulator::getExistingTargetState(antlr4::dfa::DFAState* s,
                                                                  size_t t) {
  if (t > MAX_DFA_EDGE || _mode >= edges_.size()) return nullptr;
  const std::vector<Edges>& states = edges_[_mode];
  auto state = static_cast<size_t>(s->stateNumber);
  return state < states.size() ? states[state][t] : nullptr;
}

void FastLexerSimulator::addDFAEdge(antlr4::dfa::DFAState* p, size_t t, antlr4::dfa::DFAState* q) {
  LexerATNSimulator::addDFAEdge(p, t, q);
  if (t > MAX_DFA_EDGE || _mode >= edges_.size() || p->stateNumber < 0) return;
  std::vector<Edges>& states = edges_[_mode];
  auto state = static_cast<size_t>(p->stateNumber);
  if (state >= states.size()) states.resize(state + 1, Edges{});
  states[state][t] = q;
}

FastFlowLexer::FastFlowLexer(Utf8Stream* input, bool keep_trivia)
    : FlowLexer(input), input_(input), keep_trivia_(keep_trivia) {
  static const CharClasses classes = ClassesOf(getATN());  // of the one lexer grammar
  input->UseClasses(&classes);
  auto* generated = getInterpreter<antlr4::atn::LexerATNSimulator>();
  simulator_ = new FastLexerSimulator(this, generated->_decisionToDFA);
  _interpreter = simulator_;
  delete generated;
}

std::unique_ptr<antlr4::Token> FastFlowLexer::nextToken() {
  // No mark on the input (Lexer::nextToken sets one so that an unbuffered stream keeps the
  // token's text): Utf8Stream holds the whole text. No _text either: only a lexer action
  // sets it, and the grammar has none.
  for (;;) {
    if (hitEOF) {
      emitEOF();
      return std::move(token);
    }
    token.reset();
    channel = antlr4::Token::DEFAULT_CHANNEL;
    tokenStartCharIndex = _input->index();
    tokenStartCharPositionInLine = simulator_->getCharPositionInLine();
    tokenStartLine = simulator_->getLine();
    do {
      type = antlr4::Token::INVALID_TYPE;
      size_t ttype;
      try {
        ttype = simulator_->match(_input, mode);
      } catch (antlr4::LexerNoViableAltException& e) {
        notifyListeners(e);  // report error
        recover(e);
        ttype = SKIP;
      }
      if (_input->LA(1) == antlr4::Token::EOF) hitEOF = true;
      if (type == antlr4::Token::INVALID_TYPE) type = ttype;
    } while (type == MORE);
    if (type == SKIP || ((type == WS || type == COMMENT) && !keep_trivia_)) continue;
    if (type == IDENT || type == STRING) {
      type = Retype(type, input_->Bytes(tokenStartCharIndex, input_->index()), getVocabulary());
    }
    if (token == nullptr) emit();
    return std::move(token);
  }
}

size_t FastFlowLexer::getLine() const {
  return simulator_->getLine();
}

size_t FastFlowLexer::getCharPositionInLine() {
  return simulator_->getCharPositionInLine();
}

}  // namespace flowc::parse
