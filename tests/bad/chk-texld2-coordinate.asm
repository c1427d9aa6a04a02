; expect: 3:11: error: the coordinate of texld in ps_2_0 must be t# or r#; found c0 [ST2019]
ps_2_0
texld r0, c0, s0
