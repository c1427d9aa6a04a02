; expect: 3:6: error: m3x2 writes .xy; writemask .xyz is not allowed [ST2010]
vs_2_0
m3x2 r0.xyz, v0, c0
