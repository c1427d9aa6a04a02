; expect: 3:2: error: predication is not available in vs_1_1: it needs vs_2_x, vs_3_0, ps_2_x or ps_3_0 [ST2016]
vs_1_1
(p0) add r0, r0, v0
