; expect: 3:6: error: m4x4 writes all four components; writemask .xyz is not allowed [ST2010]
vs_2_0
m4x4 r0.xyz, v0, c0
