// 20-cube-reflect (ps_1_3): cube-map lookup along the per-pixel world normal (diffuse irradiance map) modulated by the base colour; covers texm3x3pad, texm3x3tex, cube texture on stage 3, mad with constant and vertex colour.
ps_1_3
def c0, 0.5, 0.5, 0.5, 1
tex t0                          // normal map
texm3x3pad t1, t0_bx2
texm3x3pad t2, t0_bx2
texm3x3tex t3, t0_bx2           // irradiance cube 3 sampled along the rotated normal
mad r0, t3, c0, v0              // half irradiance plus vertex colour
