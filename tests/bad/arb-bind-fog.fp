!!ARBfp1.0
# expect: 3:20: error: state.fog.density: expected color or params [ST2101]
PARAM p = state.fog.density;
END
