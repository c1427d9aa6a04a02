; expect: 3:5: error: frc in vs_1_1 writes .x, .y or .xy; writemask .z is not allowed [ST2010]
vs_1_1
frc r0.z, v0
