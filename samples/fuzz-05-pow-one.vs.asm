// fuzz-05-pow-one (vs_2_0): found by tests/test_fuzz.c; pow is exp2(src1 * log2(|src0|)), so with src0 = -1 the product is src1 * 0: NaN under --float-rules=ieee, 0 under d3d9 (0 * anything = 0) and then pow = 1; the LLVM engine gave NaN under d3d9 for pow(-1, +-inf) and pow(-1, NaN).
vs_2_0
dcl_texcoord0 v0
dcl_texcoord1 v1
mov r1.x, v1.x
pow r0.x, v0.x, r1.x
mov oPos, r0.x
