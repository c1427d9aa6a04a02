!!ARBfp1.0
# expect: 3:22: error: state.depth.near: expected .range [ST2101]
PARAM p = state.depth.near;
END
