// The grammar of CEL expressions (github.com/google/cel-spec, doc/langdef.md, "Syntax"),
// with the optional-value syntax (`a.?b`, `a[?k]`, `[?x]`, `{?k: v}`) that Kubernetes enables.
// Message construction (`pkg.Msg{f: v}`) is left out: CRD rules have no message types.
//
// compiler/cel/parse.cc turns the tree into compiler/cel's AST; nothing else sees it.
parser grammar CelParser;

options { tokenVocab = CelLexer; }

start : e=expr EOF;

expr : e=conditionalOr (op=QUESTIONMARK e1=conditionalOr COLON e2=expr)?;

conditionalOr : e=conditionalAnd (LOGICAL_OR conditionalAnd)*;

conditionalAnd : e=relation (LOGICAL_AND relation)*;

relation
  : calc
  | relation op=(LESS | LESS_EQUALS | GREATER_EQUALS | GREATER | EQUALS | NOT_EQUALS | IN) relation
  ;

calc
  : unary
  | calc op=(STAR | SLASH | PERCENT) calc
  | calc op=(PLUS | MINUS) calc
  ;

unary
  : member                   # MemberExpr
  | (ops+=EXCLAM)+ member     # LogicalNot
  | (ops+=MINUS)+ member      # Negate
  ;

member
  : primary                                                              # PrimaryExpr
  | member op=DOT (opt=QUESTIONMARK)? id=IDENTIFIER                       # Select
  | member op=DOT id=IDENTIFIER open=LPAREN (args=exprList)? RPAREN      # MemberCall
  | member op=LBRACKET (opt=QUESTIONMARK)? index=expr RBRACKET           # Index
  ;

primary
  : (leadingDot=DOT)? id=IDENTIFIER (op=LPAREN (args=exprList)? RPAREN)?  # Ident
  | LPAREN e=expr RPAREN                                                 # Nested
  | op=LBRACKET (elems=listInit)? COMMA? RBRACKET                        # CreateList
  | op=LBRACE (entries=mapInit)? COMMA? RBRACE                           # CreateMap
  | literal                                                              # ConstantLiteral
  ;

exprList : e+=expr (COMMA e+=expr)*;

listInit : elems+=optExpr (COMMA elems+=optExpr)*;

optExpr : (opt=QUESTIONMARK)? e=expr;

mapInit
  : keys+=optExpr cols+=COLON values+=expr (COMMA keys+=optExpr cols+=COLON values+=expr)*
  ;

literal
  : (sign=MINUS)? tok=NUM_INT    # Int
  | tok=NUM_UINT                 # Uint
  | (sign=MINUS)? tok=NUM_FLOAT  # Double
  | tok=STRING                   # String
  | tok=BYTES                    # Bytes
  | tok=CEL_TRUE                 # BoolTrue
  | tok=CEL_FALSE                # BoolFalse
  | tok=NUL                      # Null
  ;
