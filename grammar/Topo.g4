// The gpulint `.topo` DSL (docs/format.md). The parser only builds a document tree:
// blocks become mappings, attributes become keys, values stay raw text with
// their spans. All typing (numbers, units, booleans) happens in the binder, so
// the DSL and YAML front ends cannot drift apart. Every part the reader uses
// carries a label: the reader runs the parser without building ANTLR's parse
// tree (a fleet file lists a million node groups) and reads the labels as each
// rule ends.
grammar Topo;

@header { package dev.gpulint.read.dsl; }

file      : block* EOF ;

// `cluster "h100-pod" { ... }`, `fabric { ... }`, `node_group "dgx" { ... }`
block     : type=WORD label=STRING? LBRACE entry* RBRACE ;

entry     : attr=attribute
          | sub=block
          ;

attribute : key=(WORD | STRING) ASSIGN val=value ;

value     : qty=quantity                      # quantityValue
          | str=STRING                        # stringValue
          | word=WORD                         # wordValue
          | LBRACK (items+=value (COMMA items+=value)* COMMA?)? RBRACK   # listValue
          ;

// A number with an optional unit: `8`, `400 Gb/s`, `70B`, `2.5 s`, `-1`.
// The parser's lookahead keeps `count = 8  speed = 400 Gb/s` apart: a WORD
// followed by `=` starts the next attribute, it is not a unit.
quantity  : num=NUMBER unit=WORD? ;

LBRACE    : '{' ;
RBRACE    : '}' ;
LBRACK    : '[' ;
RBRACK    : ']' ;
COMMA     : ',' ;
ASSIGN    : '=' ;

NUMBER    : '-'? DIGIT (DIGIT | '_')* ('.' DIGIT+)? ([eE] [+-]? DIGIT+)? ;
// Names, bare values and units: `infiniband`, `rail-optimized`, `H100-SXM5-80GB`,
// `NCCL_IB_DISABLE`, `GB/s`, `Gbit/s`.
WORD      : [A-Za-z_] [A-Za-z0-9_.\-]* ('/' [A-Za-z]+)? ;
STRING    : '"' ( '\\' . | ~["\\\r\n] )* '"' ;

LINE_COMMENT  : ('#' | '//') ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n\f\u00A0\uFEFF]+ -> skip ;

fragment DIGIT : [0-9] ;
