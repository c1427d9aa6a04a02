; expect: 4:12: error: unterminated comment: '/*' without '*/' before the end of the file [ST1107]
vs_2_0
mov r0, c0
mov r1, c1 /* the rest is a comment
mov r2, c2
