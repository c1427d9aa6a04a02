; expect: 3:13: error: the .b (.z) replicate needs a .a (.w) writemask in ps_1_1 [ST2009]
ps_1_1
mov r0.rgb, c0.b
mov r0.a, c0.b
