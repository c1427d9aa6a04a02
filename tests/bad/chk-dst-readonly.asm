; expect: 3:5: error: v0 cannot be written: input registers are read-only [ST2005]
vs_1_1
mov v0, r0
