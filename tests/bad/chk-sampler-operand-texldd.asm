; expect: 4:16: warning: the second source of texldd should be a sampler s#; found r2 (assemblers accept it, runtimes reject it) [ST2019]
; expect: 5:1: error: texldd takes 4 source operands; found 1 [ST2002]
ps_3_0
texldd r0, v0, r2, r3, r4
texldd r0, v0
