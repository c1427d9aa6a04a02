#define PAIR(a, b) a, b
#define CAT(a, b) a ## b
#define BAD mov r0, q0
vs_2_0
mov r1, PAIR(c1)
mov r2, CAT(c, [)
  BAD
mov r3, PAIR(c3,
#define X 1
c4)
