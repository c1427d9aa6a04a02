// fuzz-03-dp4-fog (vs_1_1): found by tests/test_fuzz.c; one lane of a dp4 result moved to the scalar fog output is still the sum over all four lanes; --emit=vasm wrote the dp4 straight into oFog with both sources narrowed to .x (dp4 oFog, v0.x, c1.x).
vs_1_1
dcl_position v0
def c1, 1, 2, 3, 4
dp4 r0, v0, c1
mov oPos, c1
mov oFog, r0.y
