; expect: 4:2: error: coissued instructions must split color and alpha: one writes .a, the other .rgb (or part of it); here they write .xyz and .xyz [ST2017]
ps_1_1
mov r0.rgb, c0
+mov r0.rgb, c1
