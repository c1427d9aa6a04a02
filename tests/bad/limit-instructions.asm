; expect: 6:1: error: the shader has 3 instructions, more than the limit of 2 [ST9002]
; args: --max-instructions=2
vs_1_1
mov r0, v0
mov r1, r0
mov oPos, r1
