!!ARBfp1.0
# expect: 3:35: error: state.matrix.texture[8]: texture matrix 8 is out of range (0..7) [ST2004]
PARAM m[] = { state.matrix.texture[8] };
END
