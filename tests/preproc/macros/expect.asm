vs_2_0
dcl_position v0
dp4 oPos.x, v0, c4
dp4 r1.x, v0, c5
mov r2, c7
mad r3, r1, c2, r2
mov r4, c26
