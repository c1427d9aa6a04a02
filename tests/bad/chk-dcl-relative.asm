; expect: 3:15: error: a declaration names one register, not o[...] [ST2012]
vs_3_0
dcl_texcoord0 o[a0.x]
