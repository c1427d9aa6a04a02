!!ARBfp1.0
# expect: 4:20: error: 'p[2]' is out of bounds: the array has 2 elements [ST2004]
PARAM p[2] = { 1, 2 };
MOV result.color, p[2];
END
