; expect: 4:2: error: only two arithmetic instructions can be coissued; the one before is not [ST2017]
ps_1_1
tex t0
+mov r0.a, t0
