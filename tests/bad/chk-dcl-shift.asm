; expect: 3:4: error: dcl takes no result shift; only _pp and _centroid are allowed [ST2008]
ps_3_0
dcl_texcoord0_x2 v0
