// 08-dynamic-lod (vs_2_x): distance-dependent tap count and facing-dependent colour with dynamic flow; covers rep with break_ge (breakc), break inside if_gt (ifc), setp_lt/setp_gt, breakp, predicated (p0.z) and (!p0.y) instructions, if p0.x (predicate if), if_le/else/endif, callnz l0, p0.y and callnz l1, !p0.y.
vs_2_x
dcl_position v0
dcl_normal v1
defi i0, 8, 0, 0, 0
def c8, 0, 1, 0.5, 1.5
def c9, 0.125, 2, 0, 0
m4x4 r0, v0, c0
mov oPos, r0
mov r1, c8.x                // r1.x = taps taken, r1.y = energy
mov r2, v1.w                // r2.x = weight of the next tap (per vertex)
rep i0
    add r1.x, r1.x, c8.y
    add r1.y, r1.y, r2.x
    mul r2.x, r2.x, c8.z
    break_ge r1.x, r0.w     // farther vertices (larger w) take more taps
    if_gt r1.x, c9.y        // hard cap: stop after the third tap
        break
    endif
    setp_lt p0.x, r2.x, c9.x
    breakp p0.x             // stop once a tap would weigh under 1/8
endrep
setp_gt p0, v1, c8.x        // per component: normal points along +x, +y, +z
mov r4, c11                 // back colour...
(p0.z) mov r4, c10          // ...replaced by the front colour when facing +z
if_le r1.y, c8.w            // few taps: darken
    mul r4, r4, c8.z
else
    add r4, r4, c12
endif
if p0.x
    add r4.x, r4.x, c8.z    // tint when the normal points along +x
endif
(!p0.y) mov r4.w, c8.z      // half alpha unless the normal points along +y
callnz l0, p0.y
callnz l1, !p0.y
mov oD0, r4
mov oT0, r1
ret
label l0
    mov oD1, c8.y
    ret
label l1
    mov oD1, c8.x
    ret
