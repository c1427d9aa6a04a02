; expect: 6:2: error: unknown preprocessor directive '#fragment' [ST1101]
; expect: 7:9: error: a macro name must be an identifier, found '2x' [ST1101]
; expect: 8:12: warning: extra text after #undef ignored [ST5007]
; expect: 9:3: error: '!' after '#' is no preprocessor directive [ST1101]
vs_2_0
#fragment
#define 2x 1
#undef FOO BAR
# !
