; expect: 4:9: error: c1 is read without _abs, but line 3 reads c# with it: a vs_3_0 shader reads all c# with _abs or none [ST2007]
vs_3_0
add r0, c0_abs, r1
add r0, c1, r1
