// 11-instance-flow (vs_3_0): instanced sprites: per-instance offset fetched through a0, a small kernel accumulated by a loop nested in a rep, per-component predicated fix-up and a predicated subroutine call; covers mova a0.x with c[a0.x + 16], rep containing loop aL with c[aL + 24], setp_eq with a full-vector predicate (p0), if b0 with callnz l1, p0.w inside, if_ne on an input, call/label/ret, dcl_color1, dcl_texcoord5, mov_sat to an output.
vs_3_0
dcl_position v0
dcl_color1 v1
dcl_texcoord5 v2            // x: instance index, y: level of detail
dcl_position o0
dcl_color0 o1
dcl_texcoord0 o2
defi i0, 2, 0, 1, 0
defi i1, 2, 0, 0, 0
defb b0, true
def c8, 0, 1, 0.5, 2
mova a0.x, v2.x
add r0, v0, c[a0.x + 16]    // instance offset (c16, c17, ...)
mov r0.w, c8.y
m4x4 o0, r0, c0
mov r1, c8.x
rep i1                      // two rings...
    loop aL, i0             // ...of two taps (c24, c25)
        add r1, r1, c[aL + 24]
    endloop
endrep
mul r1, r1, c8.z            // average of the two rings
add r1, r1, v1
setp_eq p0, v1, c8.x        // components where the vertex colour is exactly 0...
(p0) mov r1, c8.z           // ...are set to 0.5
if b0
    callnz l1, p0.w         // transparent vertices get extra alpha
endif
if_ne v2.y, c8.x            // coarser level of detail: halve the colour
    mul r1, r1, c8.z
endif
call l2
mov_sat o1, r1
ret
label l1
    add r1.w, r1.w, c8.z
    ret
label l2
    mov o2, v2
    ret
