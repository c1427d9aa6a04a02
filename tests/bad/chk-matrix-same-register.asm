; expect: 3:6: error: m4x4 cannot write r0, the vector it reads: use another destination [ST2019]
vs_2_0
m4x4 r0, r0, c0
