// 06-mova-morph (vs_2_0): blends two displacement vectors picked from a constant palette by rounded per-vertex indices and builds a signed tangent frame; covers mova (round to nearest) into a0.xy, relative addressing c[a0.x + 20] and c20[a0.y], lrp, crs, sgn (with its two scratch temps), frc, m3x3 into oT0.xyz, a two-letter replicate swizzle (.xy = .xyyy).
vs_2_0
dcl_position v0
dcl_normal v1
dcl_tangent v2
dcl_blendindices v3
def c4, 0.5, 1, 0, -1
mova a0.xy, v3              // palette indices, rounded to nearest
frc r7.x, v3.z              // blend weight: fractional part of v3.z
mov r1, c[a0.x + 20]        // displacement picked by a0.x
lrp r0, r7.x, r1, c20[a0.y] // blend towards the one picked by a0.y
add r0.xyz, r0, v0
mov r0.w, v0.w
m4x4 oPos, r0, c0
mov r3, v1
crs r2.xyz, r3, v2          // binormal = N x T
mov r5, c4.z                // sgn clobbers two scratch temps: give them values
mov r6, c4.z
sgn r4, v2.w, r5, r6        // handedness stored in the tangent's w
mul r2.xyz, r2, r4.w
m3x3 oT0.xyz, r3, c8        // normal in view space (rows c8..c10)
mov oT0.w, c4.y
mov oT1, v2
mov oT2.xyz, r2
mov oT2.w, r4.x
mov oD0, c4.xy              // (0.5, 1, 1, 1)
