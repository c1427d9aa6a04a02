vs_2_0 q
; expect: 1:8: error: unexpected name 'q', expected end of line [ST1002]
