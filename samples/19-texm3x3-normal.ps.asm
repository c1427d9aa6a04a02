// 19-texm3x3-normal (ps_1_2): tangent-to-world rotation of a normal-map normal without a lookup (texm3x3), then signed N.L lighting; covers texm3x3pad, texm3x3 (vector result), dp3_sat with a texture register, mad, co-issue, _bx2 on texture-address sources and on v0.
ps_1_2
def c0, 0.125, 0.125, 0.125, 1  // ambient, opaque
tex t0                          // normal map
texm3x3pad t1, t0_bx2
texm3x3pad t2, t0_bx2
texm3x3 t3, t0_bx2              // t3 = (world normal, 1)
dp3_sat r0, t3, v0_bx2          // N.L with the light vector packed in v0
mad r0.rgb, r0, v1, c0          // times light colour, plus ambient
+ mov r0.a, v1.a
