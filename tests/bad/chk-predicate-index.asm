; expect: 3:2: error: register p1 out of range: ps_2_x has p0 only [ST2004]
ps_2_x
(p1) add r0, r1, r2
