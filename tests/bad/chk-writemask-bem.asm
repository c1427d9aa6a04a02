; expect: 3:5: error: bem writes .rg (.xy); writemask .x is not allowed [ST2010]
ps_1_4
bem r1.x, c0, r0
