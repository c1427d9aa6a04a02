; expect: 3:5: error: dp3 in ps_1_1 writes .rgb or .rgba; writemask .a is not allowed [ST2010]
ps_1_1
dp3 r0.a, c0, c1
