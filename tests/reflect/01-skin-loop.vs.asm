vs_3_0
dcl_position v0
dcl_texcoord0 v1
dcl_blendindices v2
dcl_position o0
dcl_texcoord1 o1.xy
def c250, 1, 2, 3, 4
defi i0, 3, 10, 2, 0
defb b1, true
dcl_2d s0
mova a0.x, v2.x
m4x4 o0, v0, c0
mov r0, c[a0.x + 20]
loop aL, i0
add r0, r0, c[aL + 100]
endloop
if b1
texldl r1, v1, s0
endif
mul o1.xy, r0, v1.yx
