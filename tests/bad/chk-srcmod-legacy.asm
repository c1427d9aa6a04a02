; expect: 4:9: error: source modifier 1 - r (complement) is not available in ps_2_0: only ps_1_1..ps_1_4 have it; use - only [ST2007]
; expect: 5:9: error: source modifier _bx2 is not available in ps_2_0: only ps_1_1..ps_1_4 have it; use - only [ST2007]
ps_2_0
mov r2, 1 - r0
mov r2, r0_bx2
