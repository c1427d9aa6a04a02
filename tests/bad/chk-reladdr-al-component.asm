; expect: 4:9: error: aL is a scalar register: write v[aL] without a component [ST2011]
ps_3_0
loop aL, i0
mov r0, v[aL.x + 1]
endloop
