; expect: 4:9: error: b0 cannot be a source of mov: b# are only read by if and callnz [ST2006]
; expect: 4:9: error: '!' applies only to a b# or p0 condition of if, callnz or breakp [ST2007]
vs_2_0
mov r0, !b0
