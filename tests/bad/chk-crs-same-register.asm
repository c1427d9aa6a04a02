; expect: 3:13: error: crs cannot read r1, its own destination [ST2019]
vs_2_0
crs r1.xyz, r1, r2
