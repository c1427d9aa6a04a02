vs_2_0
#line 100 "generated.vsh"
mov r0, c0
mov r1, v20
# 7 "other.vsh"
mov r2, v21
rep i0
#line 20
endif
