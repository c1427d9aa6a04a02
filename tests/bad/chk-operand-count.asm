; expect: 3:13: error: mov takes 1 source operand; found 2 [ST2002]
vs_1_1
mov r0, r1, r2
