// 03-skin-palette (vs_1_1): two-bone matrix-palette skinning with 4x3 bone matrices picked by per-vertex indices; covers dcl_blendweight/dcl_blendindices, mov to a0.x, relative constant addressing c[a0.x + n] on m4x3 and dp4, sub, mad, mul, mov, writemasks .xyz/.xy/.w.
vs_1_1
dcl_position v0
dcl_blendweight v1
dcl_blendindices v2
def c4, 3, 1, 0, 0
mul r0.xy, v2, c4.x         // each bone is three constant rows: index * 3
mov a0.x, r0.x
m4x3 r1.xyz, v0, c[a0.x + 10]   // first bone (palette starts at c10)
mov a0.x, r0.y
dp4 r2.x, v0, c[a0.x + 10]  // second bone, row by row
dp4 r2.y, v0, c[a0.x + 11]
dp4 r2.z, v0, c[a0.x + 12]
sub r3.xyz, r1, r2
mad r4.xyz, r3, v1.x, r2    // w * bone0 + (1 - w) * bone1
mov r4.w, c4.y
m4x4 oPos, r4, c0
mov oD0, v1                 // show the weights
