// The lexer grammar as it was before compiler/parse's FastFlowLexer typed keywords and
// unterminated strings itself (grammar/FlowLexer.g4 at f78dbf3^): a rule for each keyword
// and one for an unterminated string, in the default mode. tests/unit/parse_input_test.cc
// lexes with both and compares every token; the token types are the same.
lexer grammar ReferenceFlowLexer;

FLOW    : 'flow';
STEP    : 'step';
PARAM   : 'param';
NEXT    : 'next';
FOREACH : 'foreach';
RUN     : 'run';
TRUE_   : 'true';
FALSE_  : 'false';
NULL_   : 'null';

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
STRING     : '"' ( '\\' ~[\r\n] | ~["\\\r\n] )* '"';
UNTERMINATED_STRING : '"' ( '\\' ~[\r\n] | ~["\\\r\n] )* ;

NUMBER : '-'? DIGITS ( '.' DIGITS )? ( [eE] [+-]? DIGITS )? ;
IDENT  : [A-Za-z_] [A-Za-z0-9_]* ;

// Tokens, as in grammar/FlowLexer.g4: FastFlowLexer drops them.
COMMENT : '#' ~[\r\n]* ;
WS      : [ \t\r\n]+ ;

ERROR_CHAR : . ;

fragment DIGITS : [0-9]+ ;
