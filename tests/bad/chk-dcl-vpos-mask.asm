; expect: 3:5: error: vPos is declared with .x, .y or .xy; writemask .xz is not allowed [ST2010]
ps_3_0
dcl vPos.xz
