; expect: 3:9: error: a0 needs a component in a relative address: write c[a0.x] [ST2011]
vs_1_1
mov r0, c[a0]
