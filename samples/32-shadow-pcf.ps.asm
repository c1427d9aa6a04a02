// 32-shadow-pcf (ps_3_0): 2x2 percentage-closer shadow filter: an outer rep over rows and an inner loop over columns fetch shadow-map depths with explicit lod, each tap is compared with setp and counted with a predicated add; fully shadowed pixels of a cut-out material are discarded; covers rep containing loop aL, texldl inside nested loops, setp_le, predicated (p0.x) add, texkill, oDepth, mad, mul.
ps_3_0
dcl_texcoord0 v0                // shadow-map coordinates (u, v, depth, -)
dcl_texcoord1 v1.xy             // material coordinates
dcl_2d s0                       // shadow map (depth in r)
dcl_2d s1                       // material (alpha = coverage)
defi i0, 2, 0, 1, 0             // two columns
defi i1, 2, 0, 0, 0             // two rows
def c0, 0.25, 0, 0.5, -0.125    // kernel step, 0, 1/2, cut-out threshold
def c1, 0, 0.25, 0, 0           // row step
mov r0.xy, v0
mov r0.zw, c0.y                 // lod 0
mov r1, c0.y                    // lit taps
rep i1
    mov r2, r0
    loop aL, i0
        texldl r3, r2, s0
        setp_le p0.x, v0.z, r3.x    // receiver not behind the stored depth: lit
        (p0.x) add r1.x, r1.x, c0.x     // each lit tap adds 1/4
        add r2.x, r2.x, c0.x        // next column
    endloop
    add r0.y, r0.y, c1.y        // next row
endrep
texld r4, v1, s1
mad r5, r1.x, c0.z, r4.w        // coverage plus half the light...
add r5, r5, c0.w                // ...must reach 1/8
texkill r5
mul r4.xyz, r4, r1.x            // shadowed colour
mov oC0, r4
mov oDepth, v0.z
