// The grammar of the flow language. docs/language.md writes it in EBNF, rule for rule, and
// tests/py/test_docs.py compares the two: a change here is a change there.
//
// Only compiler/parse sees the contexts ANTLR generates from this file; it
// turns them into the plain structs of compiler/parse/ast.h. Semantic rules
// (one `run` per step, known decorators, types of values) are checked later,
// where a diagnostic can say more than "unexpected token".
parser grammar FlowParser;

options { tokenVocab = FlowLexer; }

file      : decorator* FLOW IDENT LBRACE flowItem* RBRACE EOF ;
// `file` a piece at a time, so that only one item's tokens and tree are held at once
// (compiler/parse/parse.cc): the head, each flowItem, the end.
flowHead  : decorator* FLOW IDENT LBRACE ;
flowEnd   : RBRACE EOF ;
flowItem  : param | step ;
param     : PARAM IDENT ( COLON IDENT )? ( EQUALS value )? ;
step      : decorator* STEP IDENT LBRACE stepItem* RBRACE ;

// One alternative for both forms of `next`, so that the parser decides
// after the first target (LL(1)) and errors point at the right token.
stepItem  : RUN ( string | list )                                  # runItem
          | NEXT IDENT ( FOREACH foreachSource | ( COMMA IDENT )* ) # nextItem
          ;
foreachSource : IDENT | list ;

decorator : AT IDENT ( LPAREN ( arg ( COMMA arg )* COMMA? )? RPAREN )? ;
arg       : IDENT EQUALS value ;

value     : string | NUMBER | TRUE_ | FALSE_ | NULL_ | list | map ;
string    : STRING | RAW_STRING ;
list      : LBRACK ( value ( COMMA value )* COMMA? )? RBRACK ;
map       : LBRACE ( entry ( COMMA entry )* COMMA? )? RBRACE ;
entry     : string COLON value ;
