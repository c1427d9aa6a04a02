; expect: 3:4: error: vertex shader declarations take no modifiers (_pp, _centroid, _sat) [ST2008]
vs_3_0
dcl_texcoord0_centroid v0
