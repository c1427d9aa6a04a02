// 60-pressure-simd8 (ps_3_0): register pressure for the Gen9 back end: sixteen independent four-component temporaries are computed from eight interpolated texture coordinates, reduced once in order and once in reverse order, so all of them are live at the same time (64 divergent floats: 64 GRFs at SIMD8, 128 at SIMD16, 256 at SIMD32); --simd=auto must fall back to SIMD8 without spilling; covers mad chains over dcl_texcoord0-7 and c0-c17.
ps_3_0
dcl_texcoord0 v0
dcl_texcoord1 v1
dcl_texcoord2 v2
dcl_texcoord3 v3
dcl_texcoord4 v4
dcl_texcoord5 v5
dcl_texcoord6 v6
dcl_texcoord7 v7
mad r0, v0, c0, v1
mad r1, v1, c1, v2
mad r2, v2, c2, v3
mad r3, v3, c3, v4
mad r4, v4, c4, v5
mad r5, v5, c5, v6
mad r6, v6, c6, v7
mad r7, v7, c7, v0
mad r8, v0, c8, v1
mad r9, v1, c9, v2
mad r10, v2, c10, v3
mad r11, v3, c11, v4
mad r12, v4, c12, v5
mad r13, v5, c13, v6
mad r14, v6, c14, v7
mad r15, v7, c15, v0
mov r16, r0
mad r16, r16, c16, r1
mad r16, r16, c16, r2
mad r16, r16, c16, r3
mad r16, r16, c16, r4
mad r16, r16, c16, r5
mad r16, r16, c16, r6
mad r16, r16, c16, r7
mad r16, r16, c16, r8
mad r16, r16, c16, r9
mad r16, r16, c16, r10
mad r16, r16, c16, r11
mad r16, r16, c16, r12
mad r16, r16, c16, r13
mad r16, r16, c16, r14
mad r16, r16, c16, r15
mov r17, r15
mad r17, r17, c17, r14
mad r17, r17, c17, r13
mad r17, r17, c17, r12
mad r17, r17, c17, r11
mad r17, r17, c17, r10
mad r17, r17, c17, r9
mad r17, r17, c17, r8
mad r17, r17, c17, r7
mad r17, r17, c17, r6
mad r17, r17, c17, r5
mad r17, r17, c17, r4
mad r17, r17, c17, r3
mad r17, r17, c17, r2
mad r17, r17, c17, r1
mad r17, r17, c17, r0
add oC0, r16, r17
