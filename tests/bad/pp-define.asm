; expect: 7:14: error: macro 'F' names the parameter 'a' twice [ST1101]
; expect: 8:13: error: expected ',' or ')' in the parameters of 'G', found 'b' [ST1101]
; expect: 9:14: error: '#' in macro 'H' is not followed by a parameter [ST1101]
; expect: 10:14: error: '##' cannot be at either end of the definition of 'J' [ST1101]
; expect: 11:9: error: 'defined' cannot be defined as a macro [ST1101]
vs_2_0
#define F(a, a) a
#define G(a b) a
#define H(x) #y
#define J(x) ## x
#define defined 1
