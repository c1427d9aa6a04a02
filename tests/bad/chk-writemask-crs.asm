; expect: 3:5: error: crs writes only .x, .y and .z; writemask .xyw includes .w [ST2010]
vs_2_0
crs r0.xyw, r1, r2
