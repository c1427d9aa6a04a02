; expect: 4:9: warning: in ps_1_1 cnd's condition should be r0.a (runtimes reject others) [ST2019]
; expect: 5:19: error: register c8 out of range: ps_1_1 has c0..c7 [ST2004]
ps_1_1
cnd r0, r1.a, c0, c1
cnd r0, r0.a, c0, c8
