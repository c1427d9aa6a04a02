// 30-two-sided-decal (ps_3_0): two-sided decal with a 2x2 ordered dither: vFace picks the front or back colour, vPos selects the dither threshold, the decal is sampled with explicit lod (texldl), a lod bias (texldb), centroid sampling and projection (texldp); covers dcl vFace with if_lt vFace, dcl vPos.xy, dcl_texcoord0_centroid, dcl_color, texldl, texldb, texld_centroid, texldp, cmp, frc, dp2add, lrp, oC0, oC1, oDepth.
ps_3_0
dcl_texcoord0_centroid v0
dcl_texcoord1 v1
dcl_color v2
dcl vFace
dcl vPos.xy
dcl_2d s0
dcl_2d s1
def c0, 0.5, 1, 0, 0.25
def c1, 0.5, 0.25, 0, 0         // dither matrix weights for (x, y) parity
def c2, 0, 0, 0, -1             // lod bias of -1
mov r0, v2                      // front faces: vertex colour...
if_lt vFace, c0.z
    mov r0, c3                  // ...back faces: c3
endif
mul r1.xy, vPos, c0.x
frc r1.xy, r1                   // 0 or 0.5 per axis within the 2x2 cell
dp2add r1.z, r1, c1, c0.w       // threshold in {0.25, 0.375, 0.5, 0.625}
mov r2.xy, v0
mov r2.zw, c0.z
texldl r3, r2, s0               // decal at level 0
mov r2.w, c2.w
texldb r4, r2, s0               // decal with lod bias -1
texld_centroid r5, v0, s0       // decal at the centroid-sampled coordinates
add r3, r3, r4
mul r3, r3, c0.x                // mean of the two mip fetches...
lrp r3, c0.w, r5, r3            // ...with a quarter of the centroid fetch
add r6.x, r3.w, -r1.z           // decal alpha above the dither threshold?
cmp r7, r6.x, r3, r0            // covered: decal, otherwise the face colour
mov oC0, r7
texldp r8, v1, s1               // projected shadow texture to the second target
mov oC1, r8
mov oDepth, r1.z                // dither threshold as depth (a debug view)
