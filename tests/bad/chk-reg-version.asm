; expect: 4:5: error: register oC0 does not exist in ps_1_3; ps_1_x writes its color to r0 [ST2003]
; expect: 5:9: error: register p0 does not exist in ps_1_3; p0 exists in vs_2_x, vs_3_0, ps_2_x and ps_3_0 [ST2003]
ps_1_3
mov oC0, r0
mov r0, p0
