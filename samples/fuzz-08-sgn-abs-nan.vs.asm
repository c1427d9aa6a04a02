// fuzz-08-sgn-abs-nan (vs_3_0): found by tests/test_fuzz.c (seed 2565) comparing the Gen engine with the interpreter; sgn of |x| is 1 when |x| > 0 and 0 otherwise, so 0 for NaN.  LLVM folds |x| > 0 into the ordered x != 0 (fcmp one), which the Gen selector compiled to cmp.ne, true for NaN: the kernel gave 1.
vs_3_0
dcl_texcoord0 v0
dcl_position o0
dcl_texcoord0 o1
sgn r0, v0_abs, r1, r2
mov o0, r0
sgn r3, -v0_abs, r1, r2
mov o1, r3
