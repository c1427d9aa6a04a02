; expect: 3:9: error: vs_1_1 indexes with a0.x only; a0.y is not allowed [ST2011]
vs_1_1
mov r0, c[a0.y]
