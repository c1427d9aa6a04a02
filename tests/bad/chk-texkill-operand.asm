; expect: 3:9: error: texkill in ps_1_3 takes a texture register t#; found r0 [ST2019]
ps_1_3
texkill r0
