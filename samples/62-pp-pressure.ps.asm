// 62-pp-pressure (ps_3_0): 60-pressure-simd8 in partial precision: eight dcl_pp texture coordinates, sixteen independent four-component mad_pp temporaries reduced in order and in reverse, all live at once (64 values: as floats 64 GRFs at SIMD8, 128 at SIMD16; as halves under --pp=fp16 32 and 64), so --pp=fp16 compiles it one width wider without spilling; covers dcl_texcoordN_pp, mad_pp, add_pp into oC0.
ps_3_0
dcl_texcoord0_pp v0
dcl_texcoord1_pp v1
dcl_texcoord2_pp v2
dcl_texcoord3_pp v3
dcl_texcoord4_pp v4
dcl_texcoord5_pp v5
dcl_texcoord6_pp v6
dcl_texcoord7_pp v7
mad_pp r0, v0, c0, v1
mad_pp r1, v1, c1, v2
mad_pp r2, v2, c2, v3
mad_pp r3, v3, c3, v4
mad_pp r4, v4, c4, v5
mad_pp r5, v5, c5, v6
mad_pp r6, v6, c6, v7
mad_pp r7, v7, c7, v0
mad_pp r8, v0, c8, v1
mad_pp r9, v1, c9, v2
mad_pp r10, v2, c10, v3
mad_pp r11, v3, c11, v4
mad_pp r12, v4, c12, v5
mad_pp r13, v5, c13, v6
mad_pp r14, v6, c14, v7
mad_pp r15, v7, c15, v0
mov_pp r16, r0
mad_pp r16, r16, c16, r1
mad_pp r16, r16, c16, r2
mad_pp r16, r16, c16, r3
mad_pp r16, r16, c16, r4
mad_pp r16, r16, c16, r5
mad_pp r16, r16, c16, r6
mad_pp r16, r16, c16, r7
mad_pp r16, r16, c16, r8
mad_pp r16, r16, c16, r9
mad_pp r16, r16, c16, r10
mad_pp r16, r16, c16, r11
mad_pp r16, r16, c16, r12
mad_pp r16, r16, c16, r13
mad_pp r16, r16, c16, r14
mad_pp r16, r16, c16, r15
mov_pp r17, r15
mad_pp r17, r17, c17, r14
mad_pp r17, r17, c17, r13
mad_pp r17, r17, c17, r12
mad_pp r17, r17, c17, r11
mad_pp r17, r17, c17, r10
mad_pp r17, r17, c17, r9
mad_pp r17, r17, c17, r8
mad_pp r17, r17, c17, r7
mad_pp r17, r17, c17, r6
mad_pp r17, r17, c17, r5
mad_pp r17, r17, c17, r4
mad_pp r17, r17, c17, r3
mad_pp r17, r17, c17, r2
mad_pp r17, r17, c17, r1
mad_pp r17, r17, c17, r0
add_pp oC0, r16, r17
