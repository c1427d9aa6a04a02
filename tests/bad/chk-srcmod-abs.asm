; expect: 3:9: error: source modifier _abs is not available in vs_1_1: only vs_3_0 and ps_3_0 have it; use the abs instruction [ST2007]
vs_1_1
mov r2, r1_abs
