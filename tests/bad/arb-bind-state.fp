!!ARBfp1.0
# expect: 3:16: error: state.point: not a fragment program state binding (material, light, lightmodel, lightprod, texenv, fog, depth, matrix) [ST2101]
PARAM p = state.point.size;
END
