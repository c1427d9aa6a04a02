; expect: 3:9: error: r0 cannot be relatively addressed: in vs_3_0 only c#, v# and o# can be relatively addressed [ST2011]
vs_3_0
add r0, r0[a0.x], r1
