// 09-vtf-displace (vs_3_0): heightmap displacement with a vertex texture fetch plus a height-dependent sway; covers dcl_2d s0, texldl, vs_3_0 input declarations, output declarations with masks (dcl_position o0, dcl_texcoord0 o1.xy and dcl_texcoord1 o1.zw packed in one register, dcl_color o2), sincos one-source form, _sat, _abs source modifier, negated constant source.
vs_3_0
dcl_position v0
dcl_normal v1
dcl_texcoord0 v2
dcl_2d s0
dcl_position o0
dcl_texcoord0 o1.xy
dcl_texcoord1 o1.zw
dcl_color o2
def c8, 0, 1, 0.5, 0.25
mov r0.xy, v2
mov r0.zw, c8.x             // sample level 0
texldl r1, r0, s0           // height in r1.x
mul r2.xyz, v1, r1.x        // push the vertex out along its normal
add r2.xyz, r2, v0
mov r2.w, v0.w
mul r3.x, v0.y, c9.x        // sway phase grows with the vertex's height
sincos r4.xy, r3.x          // r4.x = cos, r4.y = sin
mad r2.x, r4.y, c9.y, r2.x  // sway along x
m4x4 o0, r2, c0
mov o1.xy, v2
mov o1.zw, r4.xxxy          // (cos, sin) for the pixel shader
add r5, r1, -c8.z           // signed height around 0.5
mov_sat o2, r5_abs          // colour: distance from mid height
