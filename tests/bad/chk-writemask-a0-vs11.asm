; expect: 3:5: error: vs_1_1 has only a0.x; writemask .y is not allowed [ST2010]
vs_1_1
mov a0.y, c0.x
