!!ARBfp1.0
# expect: 3:19: error: state.matrix.texture[1].inverse: a matrix is four vectors: bind it to a PARAM array or select one with .row[n] [ST2019]
MOV result.color, state.matrix.texture[1].inverse;
END
