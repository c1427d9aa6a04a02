; expect: 4:2: error: coissue '+' is not available in ps_2_0: only ps_1_1..ps_1_4 pair instructions [ST2017]
ps_2_0
add r0.rgb, r0, r1
+add r0.a, r0, v1
