; expect: 3:1: error: instruction texm3x3vspec is not available in ps_2_0; it exists in ps_1_1..ps_1_3 [ST2001]
ps_2_0
texm3x3vspec t3, t0
