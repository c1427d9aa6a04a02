// 21-depth-sprite (ps_1_3): depth sprite: depth z/w from a 3x2 matrix applied to a height texel replaces the interpolated depth, pixels outside the sprite's clip volume are discarded; covers texm3x2pad, texm3x2depth (writes oDepth), texkill, mul_x4, _sat.
ps_1_3
tex t0                          // height texel (x, y, z)
texm3x2pad t1, t0               // z = t1.xyz . t0
texm3x2depth t2, t0             // w = t2.xyz . t0; depth = z / w
texkill t3                      // discard when any of t3.xyz < 0
mul_x4_sat r0, t0, v0           // brightened sprite colour
