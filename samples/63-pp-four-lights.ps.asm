// 63-pp-four-lights (ps_2_0): per-pixel Blinn-Phong from four point lights, written as a compiler schedules it for latency (every light's direction and half vector first, then the dot products), all in partial precision: the many live vectors fit SIMD32 only as halves; covers dcl_pp t#/v#, texld_pp, nrm_pp, add_pp, dp3_pp, dp3_sat_pp, rsq_pp, mul_pp, mad_pp, pow_pp, min_pp, mov into oC0.
ps_2_0
dcl_pp t0.xy                    // texture coordinates
dcl_pp t1.xyz                   // position (view space)
dcl_pp t2.xyz                   // normal
dcl_pp v0                       // vertex colour
dcl_2d s0                       // albedo
def c0, 0.5, 1, 8, 0            // specular weight, one, specular power
texld_pp r0, t0, s0
nrm_pp r1.xyz, t2               // N
nrm_pp r2.xyz, -t1              // V: the eye is at the origin
add_pp r3.xyz, c1, -t1          // to light 1..4
add_pp r4.xyz, c2, -t1
add_pp r5.xyz, c3, -t1
add_pp r6.xyz, c4, -t1
nrm_pp r3.xyz, r3               // L1..L4
nrm_pp r4.xyz, r4
nrm_pp r5.xyz, r5
nrm_pp r6.xyz, r6
add_pp r7.xyz, r3, r2           // H1..H4, not normalised yet
add_pp r8.xyz, r4, r2
add_pp r9.xyz, r5, r2
add_pp r10.xyz, r6, r2
nrm_pp r7.xyz, r7
nrm_pp r8.xyz, r8
nrm_pp r9.xyz, r9
nrm_pp r10.xyz, r10
dp3_sat_pp r11.x, r1, r3        // N.L per light
dp3_sat_pp r11.y, r1, r4
dp3_sat_pp r11.z, r1, r5
dp3_sat_pp r11.w, r1, r6
dp3_sat_pp r3.x, r1, r7         // N.H per light
dp3_sat_pp r3.y, r1, r8
dp3_sat_pp r3.z, r1, r9
dp3_sat_pp r3.w, r1, r10
pow_pp r4.x, r3.x, c0.z         // (N.H)^8 per light
pow_pp r4.y, r3.y, c0.z
pow_pp r4.z, r3.z, c0.z
pow_pp r4.w, r3.w, c0.z
mul_pp r5.xyz, c5, r11.x        // diffuse: sum of colour * N.L
mad_pp r5.xyz, c6, r11.y, r5
mad_pp r5.xyz, c7, r11.z, r5
mad_pp r5.xyz, c8, r11.w, r5
dp4_pp r6.x, r4, c9             // specular: weighted sum of the highlights
mul_pp r0, r0, v0               // surface colour
mul_pp r0.xyz, r0, r5
mad_pp r0.xyz, r6.x, c0.x, r0
min_pp r0.xyz, r0, c0.y
mov oC0, r0
