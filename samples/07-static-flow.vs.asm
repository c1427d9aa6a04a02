// 07-static-flow (vs_2_0): boolean-configured vertex pipeline: optional sine wave, shell extrusion repeated i1.x times, and one of two colour subroutines; covers defb, defi, if b0/else/endif, rep/endrep, call, callnz b1, callnz !b1, label, ret, sincos in its vs_2_0 three-source form (D3DSINCOSCONST1/2 operands).
vs_2_0
dcl_position v0
dcl_normal v1
dcl_texcoord v2
defb b0, true
defb b1, false
defi i1, 3, 0, 0, 0
def c10, -1.5500992e-006, -2.1701389e-005, 0.0026041667, 0.00026041668
def c11, -0.020833334, -0.125, 1, 0.5
def c12, 2, 0.25, 0, 1      // wave frequency, wave amplitude, 0, 1
mov r0, v0
if b0
    call l1                 // wave along y
else
    mov r2, c12.z
endif
rep i1                      // extrude a shell layer per iteration
    mad r0.xyz, v1, c13.x, r0
endrep
m4x4 oPos, r0, c0
callnz l2, b1
callnz l3, !b1
mov oT0, v2
mov oT1, r2
ret
label l1
    mul r1.x, v0.x, c12.x       // phase = x * frequency (kept in [-pi, pi])
    sincos r2.xy, r1.x, c10, c11    // r2.x = cos, r2.y = sin
    mad r0.y, r2.y, c12.y, r0.y
    mov r2.zw, c12.zzzw
    ret
label l2
    mov oD0, c14
    ret
label l3
    mov oD0, c15
    ret
