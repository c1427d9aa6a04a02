// An index per vertex that takes one of three values (one per branch, each from a constant), into pulled constants, for eight rows (two m4x4): a waterfall loop does one block read of the eight rows per distinct index among the vertices of a thread instead of eight messages.
vs_3_0
dcl_position v0
dcl_texcoord0 v1
dcl_position o0
dcl_texcoord0 o1
def c0, 0, 0, 0, 0
if_gt v1.x, c0.x
    mova a0.x, c1.x
else
    if_gt v1.y, c0.x
        mova a0.x, c2.x
    else
        mova a0.x, c3.x
    endif
endif
m4x4 o0, v0, c[a0.x + 10]
m4x4 o1, v0, c[a0.x + 14]
