!!ARBfp1.0
# expect: 3:11: error: a constant vector in a declaration takes no sign: sign its components [ST2019]
PARAM p = -{1, 2};
END
