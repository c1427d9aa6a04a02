// fuzz-05-pow-one (vs_2_0): found by tests/test_fuzz.c; pow is |src0|^src1, so with src0 = -1 it is 1 for every src1 (+-inf and NaN included; C99's pow(1, y)), under both float rules; the LLVM engine once gave NaN under d3d9 for pow(-1, +-inf) and pow(-1, NaN), when pow was computed as its expansion exp2(src1 * log2|src0|) (NaN under ieee, 1 under d3d9's 0 * anything = 0).
vs_2_0
dcl_texcoord0 v0
dcl_texcoord1 v1
mov r1.x, v1.x
pow r0.x, v0.x, r1.x
mov oPos, r0.x
