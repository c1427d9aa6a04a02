; expect: 4:21: warning: sincos's src1 should be a c# holding D3DSINCOSCONST1; found r2 [ST2019]
; expect: 5:1: error: sincos takes 3 source operands in vs_2_0 (sincos dst, src, c#, c#); found 1 [ST2002]
vs_2_0
sincos r0.xy, r1.x, r2, c1
sincos r0.xy, r1.x
