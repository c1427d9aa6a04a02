; expect: 3:9: error: source modifier 1 - r (complement) is not available in vs_3_0: only ps_1_1..ps_1_4 have it; vs_3_0 and ps_3_0 have - and _abs [ST2007]
vs_3_0
mov r2, 1 - r1
