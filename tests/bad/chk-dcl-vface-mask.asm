; expect: 3:5: error: vFace is declared without a writemask [ST2010]
ps_3_0
dcl vFace.x
