// 31-parallax-march (ps_3_0): steep-parallax ray march: the view ray steps through a height field with explicit-lod fetches until it drops below the surface, and the final colour fetch uses gradients of the original coordinates; covers dsx, dsy (before any branch), rep/endrep with break_le, texldl inside a loop, setp_gt + breakp, texldd, sincos one-source form, if_ne/else/endif, _pp, _sat; evaluated on whole 2x2 quads.
ps_3_0
dcl_texcoord0 v0.xy             // texture coordinates
dcl_texcoord1 v1.xyz            // tangent-space view vector (z > 0)
dcl_2d s0                       // height field (r) 
dcl_2d s1                       // colour
defi i0, 8, 0, 0, 0
def c0, 0.25, 1, 0, 0.125       // step in height, 1, 0, parallax scale
def c1, 0, 0, 0, 0
dsx r0.xy, v0                   // gradients taken while all pixels run together
dsy r1.xy, v0
rcp r2.x, v1.z
mul r2.xy, v1, r2.x             // view.xy / view.z
mul r2.xy, r2, c0.w             // uv offset per unit of depth
mul r2.xy, r2, c0.x             // ...per step
mov r3.xy, v0                   // current uv
mov r3.zw, c1                   // lod 0
mov r4.x, c0.y                  // current ray height
rep i0
    texldl r5, r3, s0           // surface height here
    break_le r4.x, r5.x         // at or below the surface: stop
    add r3.xy, r3, -r2          // march one step
    add r4.x, r4.x, -c0.x
    setp_gt p0.x, c0.x, r4.x    // height under one step: stop too
    breakp p0.x
endrep
texldd_pp r6, r3, s1, r0, r1    // colour at the hit, with the unmarched footprint
sincos r7.xy, r4.x              // (cos, sin) of the remaining height: a banding tint
if_ne r4.x, c0.y                // the ray moved: tint by the sine
    mad_sat r6.xyz, r7.y, c0.x, r6
else
    mov r6.w, c0.y
endif
mov oC0, r6
