!!ARBfp1.0
# expect: 4:20: error: fragment programs have no relative addressing: the index must be a number [ST2011]
PARAM p[2] = { 1, 2 };
MOV result.color, p[A0.x];
END
