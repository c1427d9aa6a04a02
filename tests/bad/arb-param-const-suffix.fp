!!ARBfp1.0
# expect: 3:17: error: a binding in a declaration takes no suffix [ST2019]
PARAM p = {1, 2}.x;
END
