// Writes the flow lexer's DFA as C++ tables, at build time, from the lexer that ANTLR generates
// from grammar/FlowLexer.g4.
//
// ANTLR's runtime lexes by simulating the grammar's ATN and caching what it learns as a DFA,
// one edge a character it has met in a state. Every process starts that DFA from nothing: the
// ATN's deserialization and the closures that build the edges were a third of a small compile
// (bench/STARTUP.md). The DFA is finite and the grammar has no predicates or actions, so this
// program builds all of it, once, with the runtime's own LexerATNSimulator (the same
// computeStartState, computeTargetState and addDFAState the runtime's lexer runs), and writes it
// out: compiler/parse/dfa_lexer.cc runs the tables. What the runtime would do with a character
// is decided here by the runtime, never by a second reading of the grammar.
//
//   flowc_lexer_dfa_gen OUT.inc
//
// The input alphabet is read in classes: characters that every transition of the ATN matches
// alike take the same edge from every state, so one representative a class is enough.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "FlowLexer.h"
#include "antlr4-runtime.h"

namespace {

using antlr4::atn::ATN;
using antlr4::dfa::DFAState;

constexpr uint32_t kEndOfUnicode = 0x110000;  // past the last code point (Lexer::MAX_CHAR_VALUE)

// The alphabet's classes: the ranges between the bounds of every set a transition of the default
// mode matches (atn/Transition.h, label(); a NotSetTransition's is the set it excludes, a
// WildcardTransition's is empty as it matches every character alike), each range's class being
// the sets that hold it. A rule's stop state leads back to where the rule was invoked
// (ATNDeserializer adds those epsilon transitions), so following targets reaches them all.
struct Classes {
  std::vector<uint32_t> first;       // each range's first code point, ascending, from 0
  std::vector<uint8_t> class_of;     // each range's class
  std::vector<uint32_t> representative;  // each class's smallest code point
};

Classes ClassesOf(const ATN& atn) {
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
  std::vector<uint32_t> bounds{0, kEndOfUnicode};
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
  Classes classes;
  std::map<std::string, uint8_t> number;
  for (size_t range = 0; range + 1 < bounds.size(); ++range) {
    auto [at, added] = number.emplace(signature[range], number.size());
    if (added) classes.representative.push_back(bounds[range]);
    // Adjacent ranges of one class are one range.
    if (!classes.class_of.empty() && classes.class_of.back() == at->second) continue;
    classes.first.push_back(bounds[range]);
    classes.class_of.push_back(at->second);
  }
  if (number.size() > 250) throw std::runtime_error("too many character classes for uint8_t");
  return classes;
}

// LexerATNSimulator with its DFA-building steps at hand (they are protected).
class Explorer final : public antlr4::atn::LexerATNSimulator {
 public:
  explicit Explorer(flowc_grammar::FlowLexer& lexer)
      : LexerATNSimulator(&lexer, lexer.getATN(),
                          lexer.getInterpreter<LexerATNSimulator>()->_decisionToDFA, cache_) {}

  // The default mode's start state, as LexerATNSimulator::matchATN makes it.
  DFAState* Start(antlr4::CharStream* input) {
    std::unique_ptr<antlr4::atn::ATNConfigSet> configs =
        computeStartState(input, atn.modeToStartState.at(0));
    if (configs->hasSemanticContext) throw std::runtime_error("the lexer has a predicate");
    return addDFAState(configs.release());
  }
  // Where `state` goes on `c`, or nullptr where the simulator stops (its ERROR state).
  DFAState* Next(antlr4::CharStream* input, DFAState* state, size_t c) {
    DFAState* next = computeTargetState(input, state, c);
    return next == ERROR.get() ? nullptr : next;
  }

 private:
  antlr4::atn::PredictionContextCache cache_;
};

template <class T>
std::string List(const std::vector<T>& values) {
  std::ostringstream out;
  for (size_t i = 0; i < values.size(); ++i) {
    out << (i == 0 ? "" : i % 16 == 0 ? ",\n    " : ", ") << +values[i];
  }
  return out.str();
}

int Generate(const char* path) {
  antlr4::ANTLRInputStream input("");  // read only by predicates and actions, which there are none of
  flowc_grammar::FlowLexer lexer(&input);
  const ATN& atn = lexer.getATN();
  Classes classes = ClassesOf(atn);
  Explorer explorer(lexer);

  // Every state reachable from the start, numbered in the order they are met (0 the start): a
  // breadth-first walk over the classes, deterministic as the classes are ordered.
  std::vector<DFAState*> states{explorer.Start(&input)};
  std::unordered_map<DFAState*, size_t> number{{states[0], 0}};
  std::vector<std::vector<size_t>> next;
  constexpr size_t kDead = 0xFFFF;
  for (size_t s = 0; s < states.size(); ++s) {
    next.emplace_back();
    for (uint32_t representative : classes.representative) {
      DFAState* target = explorer.Next(&input, states[s], representative);
      if (target == nullptr) {
        next[s].push_back(kDead);
        continue;
      }
      auto [at, added] = number.emplace(target, states.size());
      if (added) states.push_back(target);
      next[s].push_back(at->second);
    }
  }
  if (states.size() >= kDead) throw std::runtime_error("too many states for uint16_t");
  std::vector<size_t> accept;
  for (DFAState* state : states) {
    if (state->lexerActionExecutor != nullptr) throw std::runtime_error("the lexer has an action");
    accept.push_back(state->isAcceptState ? state->prediction : 0);
  }
  if (accept[0] != 0) throw std::runtime_error("a rule matches the empty string");

  // The keywords: every token of the vocabulary whose literal name is a quoted word (the rules
  // of the lexer's KEYWORDS mode, which the DFA never enters: IDENT matches them).
  const antlr4::dfa::Vocabulary& vocabulary = lexer.getVocabulary();
  std::ostringstream keywords;
  for (size_t t = 1; t <= vocabulary.getMaxTokenType(); ++t) {
    std::string name = vocabulary.getLiteralName(t);
    if (name.size() > 2 && std::all_of(name.begin() + 1, name.end() - 1, [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        })) {
      keywords << "    {\"" << name.substr(1, name.size() - 2) << "\", " << t << "},\n";
    }
  }

  std::vector<uint8_t> ascii(128);
  for (uint32_t c = 0; c < 128; ++c) {
    size_t range = std::upper_bound(classes.first.begin(), classes.first.end(), c) -
                   classes.first.begin() - 1;
    ascii[c] = classes.class_of[range];
  }
  std::ostringstream out;
  out << "// Generated by grammar/lexer_dfa_gen.cc from grammar/FlowLexer.g4's ATN: do not edit.\n"
      << "// " << states.size() << " states, " << classes.representative.size() << " classes.\n"
      << "namespace flowc::parse::lexer_dfa {\n\n"
      << "constexpr size_t kClasses = " << classes.representative.size() << ";\n"
      << "constexpr uint16_t kDead = " << kDead << ";\n\n"
      << "// The class of each ASCII character.\n"
      << "constexpr uint8_t kAsciiClass[128] = {\n    " << List(ascii) << "};\n\n"
      << "// The classes of every code point, in ranges: each from its first code point up to the\n"
      << "// next range's.\n"
      << "constexpr uint32_t kRangeFirst[] = {\n    " << List(classes.first) << "};\n"
      << "constexpr uint8_t kRangeClass[] = {\n    " << List(classes.class_of) << "};\n\n"
      << "// Each state's token type when the token may end there, else 0.\n"
      << "constexpr uint16_t kAccept[" << states.size() << "] = {\n    " << List(accept)
      << "};\n\n"
      << "// The state after each state on each class (kDead: no token goes on).\n"
      << "constexpr uint16_t kNext[" << states.size() << "][kClasses] = {\n";
  for (const std::vector<size_t>& row : next) out << "    {" << List(row) << "},\n";
  out << "};\n\n"
      << "// The keywords, which the grammar lexes as IDENT, and their token types.\n"
      << "struct Keyword {\n  const char* word;\n  size_t type;\n};\n"
      << "constexpr Keyword kKeywords[] = {\n" << keywords.str() << "};\n\n"
      << "}  // namespace flowc::parse::lexer_dfa\n";

  std::ofstream file(path, std::ios::binary);
  file << out.str();
  file.close();
  if (!file) throw std::runtime_error(std::string("cannot write ") + path);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: flowc_lexer_dfa_gen OUT.inc\n";
    return 2;
  }
  try {
    return Generate(argv[1]);
  } catch (const std::exception& e) {
    std::cerr << "flowc_lexer_dfa_gen: " << e.what() << "\n";
    return 1;
  }
}
