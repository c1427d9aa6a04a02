// An index per vertex into pushed constants: the loop runs inside a branch some vertices take, so its aL is a value per channel (the other channels keep theirs), and c[aL + 1] reads c1 and c2 by a gather from the constant buffer (a whole vector: fewer issue cycles than four per-channel indirect movs) without a bounds check (the loop's counts bound aL).
vs_3_0
dcl_position v0
dcl_position o0
defi i0, 2, 0, 1, 0
def c0, 0, 0, 0, 0
mov r0, c0
if_gt v0.x, c0.x
    loop aL, i0
        add r0, r0, c[aL + 1]
    endloop
endif
mov o0, r0
