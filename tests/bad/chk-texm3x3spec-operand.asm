; expect: 6:21: error: texm3x3spec's second source must be a constant c# (the eye vector); found t1 [ST2019]
ps_1_3
tex t0
texm3x3pad t1, t0
texm3x3pad t2, t0
texm3x3spec t3, t0, t1
