; expect: 3:9: error: a0 does not exist in ps_3_0; a0 exists only in vertex shaders [ST2003]
ps_3_0
mov r0, v[a0.x + 2]
