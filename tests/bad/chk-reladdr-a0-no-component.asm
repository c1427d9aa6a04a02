; expect: 4:9: warning: a0 without a component reads a0.x; write c[a0.x] [ST2011]
; expect: 5:9: error: register r12 out of range: vs_2_0 has r0..r11 [ST2004]
vs_2_0
mov r0, c0[a0]
mov r0, r12
