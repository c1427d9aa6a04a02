// 05-light-loop (vs_2_0): two-sided diffuse plus specular from three point lights read from a constant array in a counted loop; covers defi, loop/endloop with aL, relative addressing c10[aL] and c[aL + 11], nrm, abs, pow, sub, dp3, mad, max, min, m4x4.
vs_2_0
dcl_position v0
dcl_normal v1
dcl_texcoord v2
defi i0, 3, 0, 2, 0         // three lights, aL = 0, 2, 4 (two constants per light)
def c4, 0, 1, 4, 0
m4x4 oPos, v0, c0
nrm r0.xyz, v1              // unit normal
mov r1, c4.x                // accumulated colour
loop aL, i0
    sub r2.xyz, c10[aL], v0     // vector to light k (positions c10, c12, c14)
    nrm r3.xyz, r2
    dp3 r4.x, r0, r3
    abs r4.x, r4.x              // two-sided lighting
    mad r1, r4.x, c[aL + 11], r1    // plus N.L * colour k (c11, c13, c15)
    pow r4.y, r4.x, c4.z        // a specular-like (N.L)^4 term
    mad r1, r4.y, c5, r1        // c5: specular colour
endloop
max r1, r1, c4.x
min oD0, r1, c4.y           // colours are clamped to [0, 1]
mov oT0, v2
