; expect: 5:1: error: subroutine l0 does not end with ret [ST2015]
vs_2_0
call l0
ret
label l0
mov r0, r1
