; expect: 3:11: error: the coordinate of texld takes no swizzle in ps_2_0; found .xy (ps_3_0 allows one) [ST2009]
ps_2_0
texld r0, t0.xy, s0
