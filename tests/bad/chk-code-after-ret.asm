; expect: 4:1: error: mov after the main program's ret: code there must start with label l# [ST2015]
vs_2_0
ret
mov r0, r1
mov r1, r2
