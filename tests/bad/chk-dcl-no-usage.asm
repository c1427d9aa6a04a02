; expect: 3:1: error: ps_2_0 declares inputs without a usage: write dcl v0 [ST2012]
ps_2_0
dcl_color0 v0
