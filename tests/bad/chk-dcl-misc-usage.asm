; expect: 3:1: error: vFace is declared without a usage: dcl vFace [ST2012]
ps_3_0
dcl_texcoord0 vFace
