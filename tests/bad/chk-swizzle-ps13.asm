; expect: 5:12: error: swizzle .w is not available in ps_1_3: texture instruction sources take no swizzle [ST2009]
; expect: 6:9: error: swizzle .x is not available in ps_1_3: only .b (.z) and .a (.w) replicate swizzles are allowed [ST2009]
ps_1_3
tex t0
texbem t1, t0.a
mov r0, c0.x
