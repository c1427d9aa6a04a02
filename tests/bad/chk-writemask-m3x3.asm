; expect: 3:6: error: m3x3 writes .xyz; writemask .xy is not allowed [ST2010]
vs_2_0
m3x3 r0.xy, v0, c0
