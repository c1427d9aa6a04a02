; expect: 3:14: error: the matrix operand of m4x4 takes no swizzle; found .x [ST2009]
vs_2_0
m4x4 r0, v0, c0.x
