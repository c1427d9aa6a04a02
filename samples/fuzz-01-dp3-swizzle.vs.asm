// fuzz-01-dp3-swizzle (vs_2_0): found by tests/test_fuzz.c; a dp3 whose second source is swizzled must read the swizzled lanes (src1.yzxw: x*c.y + y*c.z + z*c.x); --emit=vasm dropped the swizzle of a second source that is not a def constant (printed dp3 oPos, v0, c1).
vs_2_0
dcl_texcoord0 v0
dp3 r0, v0, c1.yzxw
mov oPos, r0
