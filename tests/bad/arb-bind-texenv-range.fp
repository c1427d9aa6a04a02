!!ARBfp1.0
# expect: 3:23: error: state.texenv[8]: texture unit 8 is out of range (0..7) [ST2004]
PARAM p = state.texenv[8].color;
END
