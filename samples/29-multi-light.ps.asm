// 29-multi-light (ps_3_0): per-pixel two-sided lighting from four lights whose unnormalised vectors (xyz) and intensities (w) arrive in consecutive texcoord inputs read through the loop counter; covers loop aL with relative input addressing v[aL] and v0[aL].w, dcl_texcoord0..4 / dcl_normal inputs with masks, nrm, dp3, _abs on a temp, texld, mov_sat to oC0 (allowed in ps_3_0).
ps_3_0
dcl_texcoord0 v0
dcl_texcoord1 v1
dcl_texcoord2 v2
dcl_texcoord3 v3
dcl_normal v4.xyz
dcl_texcoord4 v5.xy
dcl_2d s0
defi i0, 4, 0, 1, 0
def c0, 0, 1, 0.5, 0
nrm r0.xyz, v4                  // unit normal
mov r1, c0.x                    // accumulated light
loop aL, i0
    nrm r2.xyz, v[aL]           // vector to light k, normalised
    dp3 r3.x, r0, r2
    mul r3.x, r3_abs.x, v0[aL].w    // two-sided |N.L| times intensity k
    mad r1.xyz, r3.x, c8, r1    // light colour c8
endloop
texld r4, v5, s0
mul r1.xyz, r1, r4
mov r1.w, r4.w
mov_sat oC0, r1
