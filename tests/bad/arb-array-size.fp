!!ARBfp1.0
# expect: 3:9: error: 'p' is declared with 1 element but initialized with 4 [ST2012]
PARAM p[1] = { state.matrix.mvp };
END
