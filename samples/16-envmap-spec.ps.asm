// 16-envmap-spec (ps_1_1): per-pixel environment reflection: the normal-map normal is rotated by a 3x3 matrix and a constant eye ray is reflected about it to index a cube map; covers texm3x3pad, texm3x3spec (constant eye ray), cube texture on stage 3, mul, co-issued mov.
ps_1_1
def c0, 0, 0, 1, 0              // eye ray in texture space
tex t0                          // normal map
texm3x3pad t1, t0_bx2
texm3x3pad t2, t0_bx2
texm3x3spec t3, t0_bx2, c0      // reflect c0 about N = rows(t1, t2, t3) * n, sample cube 3
mul r0.rgb, t3, v0
+ mov r0.a, v0.a
