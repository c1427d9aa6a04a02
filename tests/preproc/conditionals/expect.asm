ps_2_0
dcl t0
mov r0, c1
mov r1, c2
mov oC0, r0
