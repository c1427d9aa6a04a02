!!ARBfp1.0
# expect: 3:26: error: state.texenv[0].mode: expected .color [ST2101]
PARAM p = state.texenv[0].mode;
END
