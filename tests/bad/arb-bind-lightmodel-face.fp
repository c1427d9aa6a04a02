!!ARBfp1.0
# expect: 3:33: error: state.lightmodel.front.ambient: expected scenecolor (the light model ambient has no face) [ST2101]
PARAM p = state.lightmodel.front.ambient;
END
