; expect: 3:4: error: _pp is not available in ps_1_4: pixel shaders have it from ps_2_0 [ST2008]
ps_1_4
mov_pp r0, r1
