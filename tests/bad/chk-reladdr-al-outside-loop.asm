; expect: 4:9: warning: aL used outside a loop block: its value is undefined there [ST2011]
; expect: 5:9: error: register v10 out of range: ps_3_0 has v0..v9 [ST2004]
ps_3_0
mov r0, v[aL]
mov r0, v10
