; expect: 3:1: error: if without endif [ST2014]
vs_2_0
if b0
mov r0, r1
