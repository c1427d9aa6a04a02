vs_2_0
dcl_position v0
mov r0, c11
mov oPos, v0
