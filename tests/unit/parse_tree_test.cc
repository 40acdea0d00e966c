// What compiler/parse/tree_to_ast.cc relies on to read a parse tree without casts.
#include <doctest/doctest.h>

#include "FlowLexer.h"
#include "FlowParser.h"
#include "antlr4-runtime.h"

namespace flowc::parse {
namespace {

TEST_CASE("parse tree: every rule of the grammar matches at least one token") {
  // So that in an error-free tree a child without children is a token (IsToken).
  antlr4::ANTLRInputStream input("");
  flowc_grammar::FlowLexer lexer(&input);
  antlr4::CommonTokenStream tokens(&lexer);
  flowc_grammar::FlowParser parser(&tokens);
  const antlr4::atn::ATN& atn = parser.getATN();
  REQUIRE(atn.ruleToStartState.size() == parser.getRuleNames().size());
  for (size_t rule = 0; rule < atn.ruleToStartState.size(); ++rule) {
    CAPTURE(parser.getRuleNames()[rule]);
    // nextTokens holds EPSILON when the rule's end is reachable without a token.
    CHECK_FALSE(atn.nextTokens(atn.ruleToStartState[rule]).contains(antlr4::Token::EPSILON));
  }
}

}  // namespace
}  // namespace flowc::parse
