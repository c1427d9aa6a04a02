// 17-vspec-glass (ps_1_1): per-pixel reflection with the eye vector carried in the w components of the three matrix rows, blended with the vertex colour; covers texm3x3pad, texm3x3vspec, cube texture on stage 3, lrp with a constant weight, co-issue.
ps_1_1
def c0, 0.75, 0.75, 0.75, 0.5
tex t0                          // normal map
texm3x3pad t1, t0_bx2
texm3x3pad t2, t0_bx2
texm3x3vspec t3, t0_bx2         // eye = (t1.w, t2.w, t3.w); reflect, sample cube 3
lrp r0.rgb, c0, t3, v0          // 3/4 reflection, 1/4 vertex colour
+ mov r0.a, c0.a
