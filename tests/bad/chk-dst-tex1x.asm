; expect: 3:5: error: tex writes a texture register t#; found r0 [ST2005]
ps_1_3
tex r0
