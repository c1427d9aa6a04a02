// 04-texgen-fog (vs_1_1): texture-matrix texgen, projector coordinates, exponential fog switched on by distance and a distance-scaled point size; covers m3x2, m3x4, m4x3, frc, exp, log, expp, logp, slt, sge, min, mad, negated source, oT0..oT3, oFog, oPts.
vs_1_1
dcl_position v0
dcl_texcoord0 v1
def c20, 1, 0.5, 0, -1
m4x4 r0, v0, c0             // clip position
mov oPos, r0
m3x2 r1.xy, v1, c4          // 2-D texture matrix (rows c4, c5) applied to (u, v, 1)
frc r1.xy, r1               // repeat wrap
mov r1.zw, c20.zzzx         // (.., .., 0, 1)
mov oT0, r1
m4x3 oT1.xyz, v0, c6        // projector space (rows c6..c8)
mov oT1.w, c20.x
m3x4 oT2, v1, c9            // 3x4 texture matrix (rows c9..c12)
log r2.x, r0.w              // log2(w): a mip bias
mov oT3, r2.x
mul r3.x, r0.w, c13.x       // -density * w
exp r3.y, r3.x              // 2^(-density * w)
sge r4.x, r0.w, c13.y       // fog only beyond the start distance...
slt r4.y, r0.w, c13.y       // ...nearer vertices are unfogged (factor 1)
mad r3.z, r4.x, r3.y, r4.y
min r3.z, r3.z, c20.x
mov oFog, r3.z
logp r6.z, r0.w             // log2(w), partial precision (lane z in every version)
add r6.z, c13.z, -r6.z      // log2(base size) - log2(w)
expp r7.z, r6.z             // point size = base size / w
mov oPts, r7.z
