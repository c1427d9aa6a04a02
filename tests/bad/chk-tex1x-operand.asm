; expect: 3:12: error: the source of texbem must be a texture register t#; found c0 [ST2019]
ps_1_3
texbem t1, c0
