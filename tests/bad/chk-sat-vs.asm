; expect: 3:4: error: _sat is not available in vs_2_0: vertex shaders have it from vs_3_0 [ST2008]
vs_2_0
mov_sat r0, r1
