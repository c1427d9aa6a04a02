; expect: 3:11: error: the coordinate of texld takes no source modifier in ps_2_x [ST2007]
ps_2_x
texld r0, -t0, s0
