// 01-transform (vs_1_1): object-to-clip transform plus Lambert diffuse with ambient; covers dcl_position/dcl_normal/dcl_texcoord0, def, m4x4, m3x3, dp3, rsq, mul, max, add, mov, nop, oPos/oD0/oT0, writemasks .xyz/.w/.x/.xy/.zw, replicate swizzles .x/.w and a four-letter swizzle.
vs_1_1
dcl_position v0
dcl_normal v1
dcl_texcoord0 v2
def c11, 0, 1, 0.5, 0
m4x4 oPos, v0, c0           // clip position; rows of the world-view-projection matrix in c0..c3
m3x3 r0.xyz, v1, c4         // world-space normal; rows of the normal matrix in c4..c6
dp3 r0.w, r0, r0
rsq r0.w, r0.w
mul r0.xyz, r0, r0.w        // unit normal
dp3 r1.x, r0, c7            // N.L, c7 is the unit vector towards the light
max r1.x, r1.x, c11.x       // faces turned away get no direct light
mul r2, r1.x, c8            // diffuse colour (c8) scaled by N.L
nop
add oD0, r2, c9             // plus ambient (c9)
mov oT0.xy, v2              // texture coordinates pass through...
mov oT0.zw, c11.xxxy        // ...completed to (u, v, 0, 1)
