; expect: 4:12: warning: the source of texcrd should be a texture register t#; found r1 (runtimes reject it) [ST2019]
; expect: 5:12: error: register t6 out of range: ps_1_4 has t0..t5 [ST2004]
ps_1_4
texcrd r0, r1
texcrd r0, t6
