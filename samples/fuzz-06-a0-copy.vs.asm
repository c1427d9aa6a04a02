// fuzz-06-a0-copy (vs_2_0): found by tests/test_fuzz.c; a copy of c[a0.x + 2] made before a0 changes keeps the constant a0 picked at the copy; --emit=vasm forwarded the relative read past the second mova, so it read the constant the new a0 picks.
vs_2_0
dcl_texcoord0 v0
mova a0.x, v0.x
mov r0, c[a0.x + 2]
mova a0.x, v0.y
add oPos, r0, c[a0.x + 2]
