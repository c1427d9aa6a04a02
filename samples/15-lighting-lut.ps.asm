// 15-lighting-lut (ps_1_1): per-pixel lighting looked up in a 2-D (N.L, N.H) texture: the normal-map texel is transformed by a 3x2 matrix carried in two coordinate sets; covers texm3x2pad, texm3x2tex, _bx2 on a texture-address source, mul, add, nop.
ps_1_1
tex t0                          // normal map
texm3x2pad t1, t0_bx2           // u = t1.xyz . N
texm3x2tex t2, t0_bx2           // v = t2.xyz . N, then sample stage 2 at (u, v)
mul r0, t2, v0                  // lighting * surface colour
nop
add r0.rgb, r0, v1              // plus emissive
