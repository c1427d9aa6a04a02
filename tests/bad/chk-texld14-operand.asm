; expect: 4:11: warning: the source of texld in ps_1_4 should be t# or r#; found c0 (runtimes reject it) [ST2019]
; expect: 5:7: error: register r6 out of range: ps_1_4 has r0..r5 [ST2004]
ps_1_4
texld r0, c0
texld r6, t0
