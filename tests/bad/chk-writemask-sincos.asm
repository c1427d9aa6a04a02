; expect: 3:8: error: sincos writes .x (cos), .y (sin) or .xy; writemask .z is not allowed [ST2010]
vs_3_0
sincos r0.z, r1.x
