; expect: 3:8: error: texkill takes no _pp modifier [ST2008]
ps_2_0
texkill_pp r0
