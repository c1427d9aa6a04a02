; expect: 3:15: error: texld takes 1 source operand in ps_1_4 (texld r#, t#); found 2 [ST2002]
ps_1_4
texld r0, t0, s0
