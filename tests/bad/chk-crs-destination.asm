; expect: 3:5: error: crs writes a temporary register r#; found oT0 [ST2005]
vs_2_0
crs oT0.xyz, r1, r2
