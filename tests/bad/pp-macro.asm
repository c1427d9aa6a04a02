; expect: 5:9: error: macro 'F' takes 2 arguments, 1 given [ST1105]
vs_2_0
#define F(a, b) a
mov r0, F(c0, c1)
mov r1, F(c1)
