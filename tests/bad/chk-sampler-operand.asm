; expect: 3:15: error: the second source of texld must be a sampler s#; found t1 [ST2019]
ps_2_0
texld r0, t0, t1
