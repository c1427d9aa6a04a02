// 23-projected-light (ps_1_4): projected light cookie and shadow lookups over two phases with a computed depth; covers texcrd (.rgb with the .xyz selector, and .rg with t#_da.xyw), texld t#_dw.xyw, texld r#_dz and r#_db in phase 2, texdepth r5 (writes oDepth), .b/.g/.r replicate selectors, arbitrary writemasks .r/.g/.rb, _x2 source modifier, _d4/_x8/_d2/_d8 shifts, cmp and cnd per component, co-issue in ps_1_4.
ps_1_4
texld r1, t1_dw.xyw             // light cookie (stage 1) at (x/w, y/w)
texcrd r2.rg, t2_da.xyw         // screen position (x/w, y/w)
texcrd r3.rgb, t3.xyz           // (x, y, z) for a projected lookup in phase 2
texcrd r4.rgb, t4               // (x, y, z) for a second one
mov r5.r, r3.b                  // depth numerator
mov r5.g, r4.b                  // depth denominator
phase
texld r3, r3_dz                 // detail map (stage 3) at (x/z, y/z)
texld r4, r4_db                 // shadow map (stage 4) at (x/z, y/z)
texdepth r5                     // depth = r5.r / r5.g
add_d4 r0.rb, r3_x2, r4         // (2 * detail + shadow) / 4 in red and blue
mul_x8 r0.g, r1.g, r2.r         // cookie green scaled by 8x the screen x
cmp r1.rgb, r2.g, r0, r3        // screen y >= 0 keeps r0, otherwise the detail colour
+ mov r1.a, r3.a                // (alpha does not survive the phase marker: rewrite it)
cnd_d2 r0.rgb, r4, r1, r3       // per component: shadow > 0.5 picks r1, else detail; halved
+ mul_d8 r0.a, r1.a, r4.a
