; expect: 3:9: error: swizzle .xy is not available in ps_1_4: only replicate swizzles (.r, .g, .b, .a) are allowed [ST2009]
ps_1_4
mov r0, c0.xy
