; expect: 3:1: error: if_gt (ifc) is not available in vs_2_0; it exists in vs_2_x and later [ST2001]
vs_2_0
if_gt r0, r1
endif
