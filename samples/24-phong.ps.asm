// 24-phong (ps_2_0): per-pixel Blinn-Phong with a normal map, pow specular and inverse-square attenuation; covers dcl t#/v# with masks, dcl_2d, texld, texld_pp, nrm, nrm_pp, dp3_sat, pow, rsq, rcp, mad, mul, add, min, mov to oC0, def.
ps_2_0
dcl t0.xy                       // texture coordinates
dcl t1.xyz                      // vector to the light (tangent space), not normalised
dcl t2.xyz                      // unit vector to the eye (tangent space)
dcl v0                          // diffuse colour
dcl_2d s0                       // normal map
dcl_2d s1                       // base colour
def c0, 2, -1, 0, 16            // unpack scale, unpack bias, zero, specular power
def c1, 1, 0.5, 0.25, 0
texld r0, t0, s0
mad r0.xyz, r0, c0.x, c0.y      // unpack the normal to [-1, 1]
nrm_pp r1.xyz, r0
dp3 r2.x, t1, t1                // squared distance to the light
rsq r2.y, r2.x                  // 1 / distance
mul r3.xyz, t1, r2.y            // L
add r4.xyz, r3, t2
nrm r5.xyz, r4                  // H
dp3_sat r6.x, r1, r3            // N.L
dp3_sat r6.y, r1, r5            // N.H
pow r6.z, r6.y, c0.w            // (N.H)^16
rcp r2.z, r2.x                  // 1 / d^2
min r2.z, r2.z, c1.x            // attenuation, at most 1
texld_pp r7, t0, s1
mul r7, r7, v0                  // surface colour
mul r8.xyz, r7, r6.x
mad r8.xyz, r6.z, c1.y, r8      // plus a half-strength white highlight
mul r8.xyz, r8, r2.z
mov r8.w, r7.w
mov oC0, r8
