vs.1.1
mov a0.x, v1.x
m4x4 oPos, v0, c[a0.x + 4]
mov oD0, v2
mov oT0.xy, v3
