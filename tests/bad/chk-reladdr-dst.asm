; expect: 3:5: error: destination r0 cannot be relatively addressed: only vs_3_0's o# can [ST2011]
vs_2_0
mov r0[a0.x], r1
