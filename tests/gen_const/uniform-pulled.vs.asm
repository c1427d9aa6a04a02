// A uniform index into pulled constants: a0 comes from c1 (one value for every vertex) and may fall anywhere, so the four rows of the m4x4 are one OWord block read, clamped into the constant buffer's zero pads; the loop's aL reaches c254, c255 and c256 (outside the file: 0), also a block read.
vs_3_0
dcl_position v0
dcl_position o0
dcl_texcoord0 o1
defi i0, 3, 0, 1, 0
mova a0.x, c1.x
m4x4 o0, v0, c[a0.x + 20]
mov r0, c0
loop aL, i0
    add r0, r0, c[aL + 254]
endloop
mov o1, r0
