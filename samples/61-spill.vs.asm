// 61-spill (vs_3_0): spilling in the Gen9 back end: twenty-eight independent four-component temporaries are computed from sixteen vertex inputs, reduced once in order and once in reverse order, so all of them are live at the same time (112 GRFs at SIMD8 besides the payload); the allocator must spill to scratch with OWord block writes and reads; covers dcl of sixteen vs_3_0 inputs, mul/add/mad chains, o# outputs.
vs_3_0
dcl_position v0
dcl_normal v1
dcl_texcoord0 v2
dcl_texcoord1 v3
dcl_texcoord2 v4
dcl_texcoord3 v5
dcl_texcoord4 v6
dcl_texcoord5 v7
dcl_texcoord6 v8
dcl_texcoord7 v9
dcl_color0 v10
dcl_color1 v11
dcl_tangent v12
dcl_binormal v13
dcl_blendweight v14
dcl_psize v15
dcl_position o0
dcl_texcoord0 o1
mul r0, v0, c0
add r0, r0, c32
mul r1, v1, c1
add r1, r1, c33
mul r2, v2, c2
add r2, r2, c34
mul r3, v3, c3
add r3, r3, c35
mul r4, v4, c4
add r4, r4, c36
mul r5, v5, c5
add r5, r5, c37
mul r6, v6, c6
add r6, r6, c38
mul r7, v7, c7
add r7, r7, c39
mul r8, v8, c8
add r8, r8, c40
mul r9, v9, c9
add r9, r9, c41
mul r10, v10, c10
add r10, r10, c42
mul r11, v11, c11
add r11, r11, c43
mul r12, v12, c12
add r12, r12, c44
mul r13, v13, c13
add r13, r13, c45
mul r14, v14, c14
add r14, r14, c46
mul r15, v15, c15
add r15, r15, c47
mul r16, v0, c16
add r16, r16, c48
mul r17, v1, c17
add r17, r17, c49
mul r18, v2, c18
add r18, r18, c50
mul r19, v3, c19
add r19, r19, c51
mul r20, v4, c20
add r20, r20, c52
mul r21, v5, c21
add r21, r21, c53
mul r22, v6, c22
add r22, r22, c54
mul r23, v7, c23
add r23, r23, c55
mul r24, v8, c24
add r24, r24, c56
mul r25, v9, c25
add r25, r25, c57
mul r26, v10, c26
add r26, r26, c58
mul r27, v11, c27
add r27, r27, c59
mov r28, r0
mad r28, r28, c28, r1
mad r28, r28, c28, r2
mad r28, r28, c28, r3
mad r28, r28, c28, r4
mad r28, r28, c28, r5
mad r28, r28, c28, r6
mad r28, r28, c28, r7
mad r28, r28, c28, r8
mad r28, r28, c28, r9
mad r28, r28, c28, r10
mad r28, r28, c28, r11
mad r28, r28, c28, r12
mad r28, r28, c28, r13
mad r28, r28, c28, r14
mad r28, r28, c28, r15
mad r28, r28, c28, r16
mad r28, r28, c28, r17
mad r28, r28, c28, r18
mad r28, r28, c28, r19
mad r28, r28, c28, r20
mad r28, r28, c28, r21
mad r28, r28, c28, r22
mad r28, r28, c28, r23
mad r28, r28, c28, r24
mad r28, r28, c28, r25
mad r28, r28, c28, r26
mad r28, r28, c28, r27
mov r29, r27
mad r29, r29, c29, r26
mad r29, r29, c29, r25
mad r29, r29, c29, r24
mad r29, r29, c29, r23
mad r29, r29, c29, r22
mad r29, r29, c29, r21
mad r29, r29, c29, r20
mad r29, r29, c29, r19
mad r29, r29, c29, r18
mad r29, r29, c29, r17
mad r29, r29, c29, r16
mad r29, r29, c29, r15
mad r29, r29, c29, r14
mad r29, r29, c29, r13
mad r29, r29, c29, r12
mad r29, r29, c29, r11
mad r29, r29, c29, r10
mad r29, r29, c29, r9
mad r29, r29, c29, r8
mad r29, r29, c29, r7
mad r29, r29, c29, r6
mad r29, r29, c29, r5
mad r29, r29, c29, r4
mad r29, r29, c29, r3
mad r29, r29, c29, r2
mad r29, r29, c29, r1
mad r29, r29, c29, r0
mov o0, r28
mov o1, r29
