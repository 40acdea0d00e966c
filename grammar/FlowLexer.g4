// Tokens of the flow language (docs/language.md, "Lexical rules").
//
// The lexer never fails: text it cannot otherwise match becomes an
// UNTERMINATED_STRING or ERROR_CHAR token, which compiler/parse turns into a
// precise diagnostic. Escapes inside strings are checked there too, so that a
// bad escape is reported at its own column rather than as a lexer error.
// TRUE_, FALSE_ and NULL_ carry a '_' because C headers define NULL (and
// some TRUE and FALSE) as macros, which would break the generated C++.
lexer grammar FlowLexer;

// Every token type, in the order that numbers them as before (an expected-token list is
// written in that order).
tokens {
  FLOW, STEP, PARAM, NEXT, FOREACH, RUN, TRUE_, FALSE_, NULL_, AT, LPAREN, RPAREN, LBRACE,
  RBRACE, LBRACK, RBRACK, COMMA, COLON, EQUALS, RAW_STRING, STRING, UNTERMINATED_STRING,
  NUMBER, IDENT, COMMENT, WS, ERROR_CHAR
}

AT       : '@';
LPAREN   : '(';
RPAREN   : ')';
LBRACE   : '{';
RBRACE   : '}';
LBRACK   : '[';
RBRACK   : ']';
COMMA    : ',';
COLON    : ':';
EQUALS   : '=';

// """...""" is raw: every character up to the closing """, newlines included.
RAW_STRING : '"""' .*? '"""';
// One rule for a string with its closing quote and one without it: FastFlowLexer makes a
// STRING that ends before its closing quote an UNTERMINATED_STRING. (Two rules would both stay
// alive through every character of every string, each new character costing the lexer's DFA
// a closure over both.)
STRING     : '"' ( '\\' ~[\r\n] | ~["\\\r\n] )* '"'? ;

NUMBER : '-'? DIGITS ( '.' DIGITS )? ( [eE] [+-]? DIGITS )? ;
IDENT  : [A-Za-z_] [A-Za-z0-9_]* ;

// Made as tokens, not `-> skip`: compiler/parse's FastFlowLexer drops them before the parser
// sees them (the runtime's skip action cost more than lexing the token).
COMMENT : '#' ~[\r\n]* ;
WS      : [ \t\r\n]+ ;

ERROR_CHAR : . ;

fragment DIGITS : [0-9]+ ;

// Never entered: the keywords are lexed as IDENT and FastFlowLexer gives a keyword its type
// (each keyword rule beside IDENT would make a DFA state of every keyword prefix). Written
// here so that the vocabulary still names them 'flow', 'step', ... in messages.
mode KEYWORDS;
FLOW    : 'flow';
STEP    : 'step';
PARAM   : 'param';
NEXT    : 'next';
FOREACH : 'foreach';
RUN     : 'run';
TRUE_   : 'true';
FALSE_  : 'false';
NULL_   : 'null';
