; expect: 3:13: error: the sources of crs take no swizzle; found .yzxw [ST2009]
vs_2_0
crs r0.xyz, r1.yzxw, r2
