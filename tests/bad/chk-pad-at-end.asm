; expect: 4:1: error: texm3x3pad must be followed by texm3x3tex, texm3x3spec, texm3x3vspec or texm3x3 [ST2020]
ps_1_3
tex t0
texm3x3pad t1, t0
texm3x3pad t2, t0
