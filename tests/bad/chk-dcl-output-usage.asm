; expect: 3:1: error: vs_3_0 output declarations need a usage, e.g. dcl_texcoord0 o0 [ST2012]
vs_3_0
dcl o0
