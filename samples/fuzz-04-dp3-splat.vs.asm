// fuzz-04-dp3-splat (vs_2_0): found by tests/test_fuzz.c; dp3 writes its sum to every lane it masks, so a later dp3 reading that register unswizzled multiplies by the sum in x, y and z; --emit=vasm kept the first sum in lane x only and read the register as .xyz (dp3 r0.x, v0, c1 then dp3 oPos, v0, r0).
vs_2_0
dcl_texcoord0 v0
dp3 r1, v0, c1
dp3 r0, v0, r1
mov oPos, r0
