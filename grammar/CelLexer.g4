// Tokens of CEL, the Common Expression Language of Kubernetes' x-kubernetes-validations
// rules (github.com/google/cel-spec, doc/langdef.md, "Syntax").
//
// The lexer never fails: a character it cannot match becomes ERROR_CHAR, which the parser
// rejects, so compiler/cel reports every bad rule through one path.
lexer grammar CelLexer;

EQUALS         : '==';
NOT_EQUALS     : '!=';
IN             : 'in';
LESS           : '<';
LESS_EQUALS    : '<=';
GREATER_EQUALS : '>=';
GREATER        : '>';
LOGICAL_AND    : '&&';
LOGICAL_OR     : '||';
LBRACKET       : '[';
RBRACKET       : ']';
LBRACE         : '{';
RBRACE         : '}';
LPAREN         : '(';
RPAREN         : ')';
DOT            : '.';
COMMA          : ',';
MINUS          : '-';
EXCLAM         : '!';
QUESTIONMARK   : '?';
COLON          : ':';
PLUS           : '+';
STAR           : '*';
SLASH          : '/';
PERCENT        : '%';
CEL_TRUE       : 'true';
CEL_FALSE      : 'false';
NUL            : 'null';

fragment DIGIT      : [0-9];
fragment HEXDIGIT   : [0-9a-fA-F];
fragment EXPONENT   : [eE] [+-]? DIGIT+;
fragment ESC_SEQ
  : '\\' [abfnrtv"'`\\?]
  | '\\' [xX] HEXDIGIT HEXDIGIT
  | '\\u' HEXDIGIT HEXDIGIT HEXDIGIT HEXDIGIT
  | '\\U' HEXDIGIT HEXDIGIT HEXDIGIT HEXDIGIT HEXDIGIT HEXDIGIT HEXDIGIT HEXDIGIT
  | '\\' [0-3] [0-7] [0-7]
  ;

WHITESPACE : [ \t\r\n\f]+ -> skip;
COMMENT    : '//' ~[\r\n]* -> skip;

NUM_FLOAT
  : DIGIT+ '.' DIGIT+ EXPONENT?
  | DIGIT+ EXPONENT
  | '.' DIGIT+ EXPONENT?
  ;
NUM_INT  : DIGIT+ | '0x' HEXDIGIT+;
NUM_UINT : (DIGIT+ | '0x' HEXDIGIT+) [uU];

// Quoted strings; the escapes are decoded (and checked) by compiler/cel/parse.cc.
STRING
  : '"' (ESC_SEQ | ~[\\"\n\r])* '"'
  | '\'' (ESC_SEQ | ~[\\'\n\r])* '\''
  | '"""' (ESC_SEQ | ~[\\])*? '"""'
  | '\'\'\'' (ESC_SEQ | ~[\\])*? '\'\'\''
  | [rR] '"' ~["\n\r]* '"'
  | [rR] '\'' ~['\n\r]* '\''
  | [rR] '"""' .*? '"""'
  | [rR] '\'\'\'' .*? '\'\'\''
  ;
BYTES : [bB] STRING;

IDENTIFIER : [_a-zA-Z] [_a-zA-Z0-9]*;

ERROR_CHAR : .;
