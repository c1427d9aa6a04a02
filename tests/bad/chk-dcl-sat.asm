; expect: 3:4: error: dcl takes no _sat modifier [ST2008]
ps_2_0
dcl_sat t0
