// 18-toon-ramp (ps_1_2): toon shading: N.L indexes a ramp (texdp3tex), N.H stays a scalar (texdp3) and picks a hard highlight with cmp, the ramp colour is recoloured through a palette (texreg2rgb); covers texdp3tex, texdp3, texreg2rgb, cmp, dp4, mul, add_sat, co-issue.
ps_1_2
def c0, 1, 1, 1, 0              // highlight colour
def c1, 0, 0, 0, 0              // no highlight
def c2, 0.25, 0.25, 0.25, 0.25  // averaging weights
tex t0                          // normal map
texdp3tex t1, t0_bx2            // ramp texture 1 at (t1.xyz . N, 0)
texdp3 t2, t0_bx2               // t2 = (t2.xyz . N) in every channel: N.H
texreg2rgb t3, t1               // palette texture 3 at the ramp colour
cmp r1, t2_bias, c0, c1         // N.H >= 0.5: hard highlight
mul r0, t1, t3                  // ramp shade times palette colour
add_sat r0.rgb, r0, r1
+ mov r0.a, t1.a
dp4 r1, t3, c2                  // palette brightness (mean of the four channels)
mul r0.rgb, r0, r1
