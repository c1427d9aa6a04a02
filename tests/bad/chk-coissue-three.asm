; expect: 5:2: error: only two instructions can be coissued; the one before is already paired [ST2017]
ps_1_1
mov r0.rgb, c0
+mov r0.a, c0
+mov r0.a, c1
