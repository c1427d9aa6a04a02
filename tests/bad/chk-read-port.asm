; expect: 4:13: warning: add reads two v# registers (v0 and v1); vs_1_1 has one v# read port per instruction [ST2006]
; expect: 5:9: error: register v16 out of range: vs_1_1 has v0..v15 [ST2004]
vs_1_1
add r0, v0, v1
mov r0, v16
