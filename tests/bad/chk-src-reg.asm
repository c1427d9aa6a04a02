; expect: 4:9: error: oPos cannot be a source of mov: output registers are write-only [ST2006]
; expect: 5:9: error: b0 cannot be a source of mov: b# are only read by if and callnz [ST2006]
vs_2_0
mov r0, oPos
mov r0, b0
