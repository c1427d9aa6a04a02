// 14-color-grade (ps_1_1): colour grading through dependent reads: the base texel's (alpha, red) and (green, blue) pairs index two lookup tables, averaged and vignetted by clamped coordinates; covers texreg2ar, texreg2gb, texcoord, add_d2, mul_x4, lrp, sub_sat, 1-x complement, .rgb/.a writemasks.
ps_1_1
def c0, 0.5, 0.5, 0.5, 0.5
tex t0                          // base colour
texreg2ar t1, t0                // LUT 1 at (t0.a, t0.r)
texreg2gb t2, t0                // LUT 2 at (t0.g, t0.b)
texcoord t3                     // screen position in [0, 1] (clamped)
add_d2 r0, t1, t2               // average of the two gradings
mul_x4 r1, t3, 1-t3             // 4u(1-u), 4v(1-v): 1 in the centre, 0 at the edges
mul r1.rgb, r1, c0              // half-strength vignette per channel
lrp r0.rgb, r1, r0, t0          // vignette blends the graded colour with the ungraded one
+ sub_sat r0.a, t0.a, t3.b      // alpha fades with the depth carried in t3.b
