ps_3_0
dcl_texcoord0 v0.xy
dcl_color v1
dcl vPos.xy
dcl vFace
dcl_cube s3
defi i0, 2, 0, 1, 0
loop aL, i0
add r0, v[aL], r0
endloop
texld r1, v0, s3
cmp r2, vFace, r1, v1
mul oC0, r2, vPos.x
