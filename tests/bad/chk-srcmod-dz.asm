; expect: 3:9: error: source modifier _dz only applies to the source of texld/texcrd in ps_1_4 [ST2007]
ps_1_4
mov r0, r1_dz
