; expect: 3:13: error: register v17 out of range: vs_3_0 has v0..v15 [ST2004]
vs_3_0
add r0, r0, v17
