// Two waterfall loops over the same index (two groups: the second read is past control flow), the second inside a branch some vertices skip: each loop takes its own first live channel, so neither may stand for the other.
vs_3_0
dcl_position v0
dcl_texcoord0 v1
dcl_position o0
dcl_texcoord0 o1
def c0, 0, 0, 0, 0
if_gt v1.x, c0.x
    mova a0.x, c1.x
else
    mova a0.x, c2.x
endif
m4x4 o0, v0, c[a0.x + 10]
if_gt v1.y, c0.x
    m4x4 o1, v0, c[a0.x + 20]
endif
