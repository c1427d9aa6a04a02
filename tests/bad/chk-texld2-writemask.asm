; expect: 4:7: error: texld writes all four components in ps_2_0: no writemask [ST2010]
ps_2_0
dcl_2d s0
texld r0.xy, t0, s0
