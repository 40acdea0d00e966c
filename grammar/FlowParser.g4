// The grammar of the flow language, rule for rule as in ../shared/DSL.md.
//
// Only compiler/parse sees the contexts ANTLR generates from this file; it
// turns them into the plain structs of compiler/parse/ast.h. Semantic rules
// (one `run` per step, known decorators, types of values) are checked later,
// where a diagnostic can say more than "unexpected token".
parser grammar FlowParser;

options { tokenVocab = FlowLexer; }

file      : decorator* FLOW IDENT LBRACE flowItem* RBRACE EOF ;
flowItem  : param | step ;
param     : PARAM IDENT ( COLON IDENT )? ( EQUALS value )? ;
step      : decorator* STEP IDENT LBRACE stepItem* RBRACE ;

stepItem  : RUN ( string | list )                       # runItem
          | NEXT IDENT FOREACH ( IDENT | list )         # foreachItem
          | NEXT IDENT ( COMMA IDENT )*                 # nextItem
          ;

decorator : AT IDENT ( LPAREN ( arg ( COMMA arg )* COMMA? )? RPAREN )? ;
arg       : IDENT EQUALS value ;

value     : string | NUMBER | TRUE_ | FALSE_ | NULL_ | list | map ;
string    : STRING | RAW_STRING ;
list      : LBRACK ( value ( COMMA value )* COMMA? )? RBRACK ;
map       : LBRACE ( entry ( COMMA entry )* COMMA? )? RBRACE ;
entry     : string COLON value ;
