; expect: 3:8: error: texkill takes no result shift [ST2008]
ps_1_1
texkill_x2 t0
