// 02-blinn-lit (vs_1_1): Blinn-Phong point light with lit coefficients and dst distance attenuation; covers lit, dst, rcp, rsq, sub, dp3, dp4, mad, mul, min, add, oD0/oD1, single-component writemasks, replicate swizzles on dst/lit operands.
vs_1_1
dcl_position v0
dcl_normal v1
def c12, 0, 1, 0, 0
dp4 oPos.x, v0, c0          // clip position, one row at a time
dp4 oPos.y, v0, c1
dp4 oPos.z, v0, c2
dp4 oPos.w, v0, c3
sub r0, c4, v0              // vector to the light (c4 = light position, object space)
dp3 r1.x, r0, r0            // d*d
rsq r1.y, r1.x              // 1/d
mul r0.xyz, r0, r1.y        // L, unit length
dst r2, r1.x, r1.y          // (1, d, d*d, 1/d)
dp3 r3.x, r2, c5            // k0 + k1*d + k2*d*d  (c5 = attenuation factors)
rcp r3.x, r3.x              // attenuation
add r4.xyz, r0, c6          // L + V, c6 = unit vector towards the eye
dp3 r4.w, r4, r4
rsq r4.w, r4.w
mul r4.xyz, r4, r4.w        // half vector H
dp3 r5.x, v1, r0            // N.L
dp3 r5.y, v1, r4            // N.H
mov r5.zw, c7               // lit ignores z; w = specular exponent
lit r6, r5                  // (1, max(N.L, 0), (N.H)^n if N.L > 0, 1)
mul r6, r6, r3.x            // attenuate
mul r7, r6.y, c8            // diffuse colour
add oD0, r7, c9             // plus ambient
min oD1, r6.z, c12.y        // specular intensity, at most 1
