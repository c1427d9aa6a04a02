!!ARBfp1.0
# expect: 3:22: error: state.light.ambient: expected '[' and a number [ST2101]
PARAM p = state.light.ambient;
END
