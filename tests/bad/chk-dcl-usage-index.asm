; expect: 3:1: error: usage index 16 out of range: 0..15 [ST2012]
vs_2_0
dcl_texcoord16 v0
