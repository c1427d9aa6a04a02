; expect: 5:1: error: compile budget of 4 work units spent [ST9002]
; args: --max-work=4
; (the parser charges one unit per line: the fifth line is one too many)
vs_1_1
mov r0, v0
mov oPos, r0
