// fuzz-07-loop-exit-moves (vs_3_0): found by tests/test_fuzz.c (seeds 2282, 2741) comparing the Gen engine with the interpreter; a loop left both by its count and by break_ge, with 17 temps (68 lanes) live across it.  LLVM's structurizecfg gives the loop one flow block whose phis carry every temp and, last, the exit flag; the Gen selector kept at most 64 phi moves per edge and silently dropped the rest, so the exit flag was never written and the kernel looped until the simulator's step limit.
vs_3_0
dcl_position v0
dcl_position o0
dcl_texcoord0 o1
def c0, 1, 1, 1, 1
mov r0, v0
add r1, r0, c0
add r2, r1, c0
add r3, r2, c0
add r4, r3, c0
add r5, r4, c0
add r6, r5, c0
add r7, r6, c0
add r8, r7, c0
add r9, r8, c0
add r10, r9, c0
add r11, r10, c0
add r12, r11, c0
add r13, r12, c0
add r14, r13, c0
add r15, r14, c0
add r16, r15, c0
loop aL, i0
    add r0, r0, c0
    add r1, r1, c0
    add r2, r2, c0
    add r3, r3, c0
    add r4, r4, c0
    add r5, r5, c0
    add r6, r6, c0
    add r7, r7, c0
    add r8, r8, c0
    add r9, r9, c0
    add r10, r10, c0
    add r11, r11, c0
    add r12, r12, c0
    add r13, r13, c0
    add r14, r14, c0
    add r15, r15, c0
    add r16, r16, c0
    break_ge r0.x, c1.x
endloop
mov r17, r0
add r17, r17, r1
add r17, r17, r2
add r17, r17, r3
add r17, r17, r4
add r17, r17, r5
add r17, r17, r6
add r17, r17, r7
add r17, r17, r8
add r17, r17, r9
add r17, r17, r10
add r17, r17, r11
add r17, r17, r12
add r17, r17, r13
add r17, r17, r14
add r17, r17, r15
add r17, r17, r16
mov o0, r17
mov o1, r16
