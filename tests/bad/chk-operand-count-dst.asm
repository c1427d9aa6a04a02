; expect: 4:1: error: mov needs a destination operand [ST2002]
; expect: 4:1: error: mov takes 1 source operand; found 0 [ST2002]
vs_2_0
mov
