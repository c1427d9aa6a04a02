// 12-bump-diffuse (ps_1_1): normal-mapped diffuse with a gloss-masked highlight and a highlight-strength select; covers tex, dp3, mad, mul, cnd (on r0.a), co-issue (+), _sat, _x2 shift, source _bx2, _bias, 1-x complement, negate, .a and .b replicate selectors, .rgb/.a writemasks, def.
ps_1_1
def c0, 0.5, 0.375, 0.25, 0.25  // highlight tint (ps_1_x constants stay within [-1, 1])
def c1, 0.25, 0.25, 0.25, 0.5   // ambient
tex t0                          // normal map, packed in [0, 1]
tex t1                          // base colour, alpha = gloss
dp3_sat r1, t0_bx2, v0_bx2      // N.L; v0 carries the light vector packed in [0, 1]
mad r0.rgb, r1, v1, c1          // N.L * light colour + ambient
+ mul r0.a, r1.b, r1.b          // (N.L)^2 highlight falloff
mul r0.rgb, r0, t1              // lit base colour
+ mul_x2 r0.a, r0.a, t1.a       // falloff * gloss * 2
mad r1.rgb, r0.a, c0, r0        // lit colour plus tinted highlight
cnd r0.rgb, r0.a, r1, r0        // keep the highlight only where it is strong (> 0.5)
+ add r0.a, 1-t1, -t0_bias      // alpha: (1 - gloss) - (height - 0.5)
