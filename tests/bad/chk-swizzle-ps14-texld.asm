; expect: 3:11: error: swizzle .xy is not allowed on the texld source in ps_1_4: use none, .xyz or .xyw [ST2009]
ps_1_4
texld r0, t0.xy
