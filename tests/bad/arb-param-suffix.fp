!!ARBfp1.0
# expect: 3:25: error: a binding in a declaration takes no suffix [ST2019]
PARAM p = program.env[0].x;
END
