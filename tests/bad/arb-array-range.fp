!!ARBfp1.0
# expect: 4:20: error: a range cannot select an array element [ST2004]
PARAM p[2] = { 1, 2 };
MOV result.color, p[0..1];
END
