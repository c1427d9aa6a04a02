// 33-fur-shell (vs_2_x): fur shell extrusion: the shell index (a depth-usage input) moves the vertex along its normal, the tangent frame turns a comb direction into object space, and per-vertex length/stiffness inputs shape the strand; covers input usages tangent, binormal, tessfactor, depth, sample, psize, fog, positiont with indices, dp3-row rotation, if_eq/else, rep with break_ge, setp_ne with (!p0) on a full vector, callnz l1, p0.x, oT writes completed to .xyzw, oFog from an input.
vs_2_x
dcl_position0 v0
dcl_normal0 v1
dcl_tangent0 v2
dcl_binormal0 v3
dcl_depth0 v4                   // x: shell index (0 = skin)
dcl_tessfactor0 v5              // x: strand length
dcl_sample0 v6                  // x: stiffness
dcl_psize0 v7                   // x: strand thickness
dcl_fog0 v8                     // x: fog density
dcl_positiont1 v9               // previous-frame position (for motion)
defi i0, 4, 0, 0, 0
def c8, 0, 1, 0.5, 0.25
def c11, 3, 0, 0, 0
mov r6, v5                      // (one input register per instruction)
mul r0.x, v4.x, r6.x            // shell offset = index * length
mov r1, v0
mad r1.xyz, v1, r0.x, r1        // extrude along the normal
dp3 r2.x, v2, c9                // comb direction (c9, tangent space) to object space:
dp3 r2.y, v3, c9                // one dot product per frame axis
dp3 r2.z, v1, c9
mul r0.y, r0.x, r0.x            // droop grows with the square of the offset...
mul r0.y, r0.y, v6.x            // ...scaled by stiffness
mad r1.xyz, r2, r0.y, r1
m4x4 oPos, r1, c0
if_eq v4.x, c8.x                // the skin shell is opaque
    mov r3, c8.y
else
    mov r3.xyz, c10
    mul r3.w, v7.x, c8.z        // thinner strands are more transparent
endif
mov r4, c8.x                    // count the shells above this one
rep i0
    add r4.y, r4.x, v4.x
    break_ge r4.y, c11.x        // c11.x: index of the outermost shell
    add r4.x, r4.x, c8.y
endrep
mov r7, v9
setp_ne p0, r7, v0              // which components moved since last frame
mov r5, c8.x
(!p0) mov r5, c8.y              // 1 where the vertex did not move
callnz l1, p0.x
mov oD0, r3
mov oT0.xyz, r2.xyz             // (a three-letter swizzle: .xyz reads as .xyzz)
mov oT0.w, r4.x
mov oT1, r5
mov oFog, v8.x                  // per-vertex fog density
ret
label l1
    mul r3.xyz, r3, c8.z        // moving along x: darken the colour (motion hint)
    ret
