; expect: 4:2: error: break cannot be predicated: use breakp p0.x [ST2016]
ps_2_x
rep i0
(p0) break
endrep
