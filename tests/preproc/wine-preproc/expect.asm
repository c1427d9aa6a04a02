vs_1_1
add r0, r0, r1
mov r0, c10
