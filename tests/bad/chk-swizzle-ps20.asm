; expect: 3:9: error: swizzle .xy is not available in ps_2_0: allowed are none, .yzxw, .zxyw, .wzyx and replicates (.x, .y, .z, .w); ps_2_x has arbitrary swizzles [ST2009]
ps_2_0
mov r0, t0.xy
