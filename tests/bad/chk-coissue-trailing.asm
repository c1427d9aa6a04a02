; expect: 6:20: error: '+' at the end of the last instruction: no instruction follows to be co-issued with it [ST2017]
ps_1_1
tex t0
mul r0.rgb, t0, v0 +
mov r0.a, v0
mul r0.rgb, r0, c0 +
