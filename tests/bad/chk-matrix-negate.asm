; expect: 3:18: error: the matrix operand of m3x3 cannot be negated [ST2007]
vs_2_0
m3x3 r0.xyz, v0, -c0
