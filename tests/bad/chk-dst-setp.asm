; expect: 3:9: error: setp writes the predicate p0; found r0 [ST2005]
ps_2_x
setp_gt r0, r1, r2
