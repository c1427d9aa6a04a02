; expect: 3:2: error: an instruction is predicated on p0; found b0 [ST2016]
ps_2_x
(b0) add r0, r1, r2
