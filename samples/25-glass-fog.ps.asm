// 25-glass-fog (ps_2_0): glass over volumetric fog: projected refraction (texldp), cube-map reflection, lod-biased volume fog (texldb), Fresnel blend, a shimmer from sincos and a cross product; covers dcl_cube, dcl_volume, texldp, texldb, abs, lrp, log, exp, frc, sincos (ps_2_0 three-source form), crs, dp2add, cmp, swizzles .yzxw/.zxyw/.wzyx and replicates.
ps_2_0
dcl t0                          // projective screen coordinates (x, y, -, w)
dcl t1                          // reflection vector (w unused)
dcl t2                          // fog volume coordinates (xyz), lod bias (w)
dcl t3.xy                       // (cosine of the view angle, time)
dcl_2d s0                       // scene behind the glass
dcl_cube s1                     // environment
dcl_volume s2                   // fog density
def c0, 0.5, 1, 0, 2
def c1, -1.5500992e-006, -2.1701389e-005, 0.0026041667, 0.00026041668
def c2, -0.020833334, -0.125, 1, 0.5
def c3, 0, 0, 1, 0              // up vector, stored as (z, x, y): .yzxw gives (0, 1, 0)
def c4, 2, -1, 0.25, 0          // phase scale, phase bias, shimmer strength
texldp r0, t0, s0               // refraction at (x/w, y/w)
texld r1, t1, s1                // reflection
texldb r2, t2, s2               // fog density, lod biased by t2.w
abs r3.x, t3.x                  // two-sided |cos|
add r3.y, c0.y, -r3.x           // 1 - |cos|
mul r3.z, r3.y, r3.y
mul r3.z, r3.z, r3.z            // Fresnel term (1 - |cos|)^4
lrp r5, r3.z, r1, r0            // reflection vs refraction
log r6.x, r2.x                  // log2(density)
mul r6.x, r6.x, c0.w
exp r6.y, r6.x                  // density^2
lrp r5.xyz, r6.y, c5.zxyw, r5   // fog colour stored as (g, b, r) in c5: .zxyw restores (r, g, b)
frc r7.x, t3.y                  // shimmer phase from time...
mad r7.x, r7.x, c4.x, c4.y      // ...mapped to [-1, 1] radians
sincos r8.xy, r7.x, c1, c2      // (cos, sin)
mov r9, t1
mov r10, c3.yzxw                // up = (0, 1, 0)
crs r4.xyz, r9, r10             // tangent = reflection x up (crs takes no swizzles)
dp2add r7.y, r4, r8, c0.z       // shimmer = tangent.xy . (cos, sin)
cmp r7.y, r7.y, r7.y, c0.z      // keep the positive part
mad r5.xyz, r7.y, c4.z, r5
mov r5.w, r2.wzyx               // alpha = density (lane w of .wzyx reads x)
mov oC0, r5
