; expect: 6:13: error: division by zero in a register index [ST1016]
; expect: 7:10: error: register index -3 is negative [ST1016]
; expect: 8:15: error: a register index must be an integer, found '0.5' [ST1014]
vs_2_0
mov r0, c[(2 + 3) * 4]
mov r0, c[4 / 0]
mov r0, c[2 - 5]
mov r0, c[1 + 0.5]
