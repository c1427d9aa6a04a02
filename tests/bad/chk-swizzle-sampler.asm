; expect: 3:15: error: sampler swizzles need ps_3_0; ps_2_0 takes s# without a swizzle [ST2009]
ps_2_0
texld r0, t0, s0.x
