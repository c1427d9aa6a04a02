; expect: 3:4: error: result shift (_x2, _x4, _x8, _d2, _d4, _d8) is not available in ps_3_0: only ps_1_1..ps_1_4 have it [ST2008]
ps_3_0
mov_x2 r0, r1
