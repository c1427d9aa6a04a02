; expect: 3:1: error: sincos takes 3 source operands in vs_2_0 (sincos dst, src, c#, c#); found 1 [ST2002]
vs_2_0
sincos r0.xy, r1.x
