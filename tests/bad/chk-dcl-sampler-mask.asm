; expect: 3:8: error: a sampler declaration takes no writemask [ST2010]
ps_2_0
dcl_2d s0.x
