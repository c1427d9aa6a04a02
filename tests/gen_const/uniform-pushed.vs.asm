// A uniform index into pushed constants: the aL of a loop over literal counts reaches c4, c5, c6, which are pushed; each c[aL + 4] is one register-indirect mov (Vx1).
vs_3_0
dcl_position v0
dcl_position o0
defi i0, 3, 0, 1, 0
mov r0, v0
loop aL, i0
    add r0, r0, c[aL + 4]
endloop
mov o0, r0
