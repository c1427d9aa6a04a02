// 10-input-array (vs_3_0): four-layer terrain texturing: each layer's coordinate set is scaled by its tiling factor and written to consecutive outputs inside a loop, and the sets are averaged for a detail layer; covers loop aL with relative input addressing v1[aL] and v[aL + 1], relative output addressing o[aL + 1], c[aL + 10], usage indices dcl_texcoord0..4, dcl_fog o5.x packed with dcl_texcoord4 o5.yzw, dcl_psize, mul_sat.
vs_3_0
dcl_position v0
dcl_texcoord0 v1
dcl_texcoord1 v2
dcl_texcoord2 v3
dcl_texcoord3 v4
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_texcoord2 o3
dcl_texcoord3 o4
dcl_fog o5.x
dcl_texcoord4 o5.yzw
dcl_psize o6
defi i0, 4, 0, 1, 0
def c8, 0, 1, 0.25, 4
m4x4 r0, v0, c0
mov o0, r0
mov r1, c8.x
loop aL, i0
    mul o[aL + 1], v1[aL], c[aL + 10]   // layer k tiling (c10..c13)
    add r1, r1, v[aL + 1]
endloop
mul r1, r1, c8.z            // average coordinate set
mul_sat o5.x, r0.w, c9.x    // linear fog from the clip w
mov o5.yzw, r1.xxyz
mov o6, c9.y                // point size
