; expect: 4:12: error: texture instruction sources take no source modifier in ps_1_1 (texm* sources may use _bx2) [ST2007]
ps_1_1
tex t0
texbem t1, t0_bx2
