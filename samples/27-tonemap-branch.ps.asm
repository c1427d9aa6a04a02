// 27-tonemap-branch (ps_2_x): HDR tone mapping with per-pixel branches: bright pixels take a Reinhard curve, dim ones a linear gain, a glow is accumulated in a rep loop that can stop early three different ways, per-channel predicated clamping and subroutines; covers if_gt/else/endif, if b0, rep/endrep, break_lt, break inside if_lt, setp_ge with breakp, setp_ge full-vector predicate (p0), (!p0.x) predicated mov, call, callnz b1, callnz !p0.y, label, ret, defb, defi.
ps_2_x
dcl t0.xy
dcl_2d s0
defi i0, 4, 0, 0, 0
defb b0, true
defb b1, false
def c0, 0.25, 1, 0, 0.5
def c1, 0.25, 0.5, 0.25, 0      // luminance weights
def c2, 0.125, 1.25, 0.75, 0
texld r0, t0, s0                // HDR colour
dp3 r1.x, r0, c1                // luminance
if_gt r1.x, c0.y                // brighter than 1: Reinhard c / (1 + L)
    add r2.x, r1.x, c0.y
    rcp r2.x, r2.x
    mul r3, r0, r2.x
else                            // otherwise a linear gain of 1/2
    mul r3, r0, c0.w
endif
mov r4, c0.z                    // glow accumulator
mov r5.x, c0.w                  // weight of the next glow tap
rep i0
    mad r4, r0, r5.x, r4
    mul r5.x, r5.x, c0.w        // each tap weighs half the previous one
    break_lt r1.x, c0.x         // dark pixels: one tap is enough
    setp_ge p0.x, r4.w, c2.z
    breakp p0.x                 // enough glow collected
    if_lt r5.x, c2.x
        break                   // weights below 1/8 no longer matter
    endif
endrep
if b0
    mad r3, r4, c0.x, r3        // add a quarter of the glow
endif
setp_ge p0, r3, c0.y            // channels at or above 1...
(p0) mov r3, c0.y               // ...are clamped to 1
(!p0.x) mul r3.x, r3.x, c2.y    // red below 1 is boosted by a quarter (a warm grade)
call l0
callnz l1, b1
callnz l2, !p0.y
mov oC0, r3
ret
label l0
    mul r3.w, r3.w, c0.y        // keep alpha
    ret
label l1
    mov r3, c0.z
    ret
label l2
    mul r3.z, r3.z, c2.z        // green not saturated: cool down the blue
    ret
