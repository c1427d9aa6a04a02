; expect: 3:2: error: '+' pairs an instruction with the one before it; there is none [ST2017]
ps_1_1
+mov r0.a, c0
