ps_1_1
tex t0
texm3x2pad t1, t0_bx2
texm3x2tex t2, t0_bx2
mul r0.rgb, t2, v0
+add r0.a, v1, c1
