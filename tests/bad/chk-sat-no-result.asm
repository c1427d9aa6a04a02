; expect: 3:8: error: texkill takes no _sat modifier [ST2008]
ps_2_0
texkill_sat r0
