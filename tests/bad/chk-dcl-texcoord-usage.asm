; expect: 3:1: error: ps_2_0 declares texture coordinates without a usage: write dcl t0 [ST2012]
ps_2_0
dcl_texcoord0 t0
