// 26-gbuffer (ps_2_0): deferred G-buffer writer with alpha-test discard: albedo, packed view normal, motion vector and SH irradiance to four render targets plus a computed depth; covers oC0..oC3, oDepth, texkill on a computed temp, m3x3, m4x4, m4x3, m3x2, m3x4, dp4, rcp, sub, replicate swizzles, dcl with the _centroid modifier.
ps_2_0
dcl_centroid t0.xy              // texture coordinates, sampled inside the primitive
dcl t1.xyz                      // world normal
dcl t2                          // world position
dcl_2d s0
def c0, 0.5, 0, 1, 0.25
texld r0, t0, s0
sub r1, r0.w, c0.w              // alpha - 1/4
texkill r1                      // alpha test: discard when negative
m3x3 r2.xyz, t1, c4             // view-space normal (rows c4..c6)
mad r2.xyz, r2, c0.x, c0.x      // packed to [0, 1]
mov r2.w, c0.z
m4x4 r3, t2, c8                 // clip position this frame (rows c8..c11)
m4x3 r4.xyz, t2, c12            // clip x, y, w last frame (rows c12..c14)
rcp r6.x, r3.w
rcp r6.y, r4.z
mul r7.xy, r3, r6.x             // NDC now
mad r7.xy, r4, -r6.y, r7        // minus NDC before: motion vector
m3x2 r5.xy, t1, c15             // view-space normal x, y (rows c15, c16)...
mov r7.z, r5.x                  // ...stored beside the motion vector
mov r7.w, r5.y
mov oC0, r0
mov oC1, r2
mov oC2, r7
m3x4 r8, t1, c17                // four SH irradiance bands from the normal (rows c17..c20)
dp4 r8.w, t2, c21               // fog distance replaces the fourth band
mov oC3, r8
mul r9.x, r3.z, r6.x            // z / w
mov oDepth, r9.x
