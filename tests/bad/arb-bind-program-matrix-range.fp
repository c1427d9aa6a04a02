!!ARBfp1.0
# expect: 3:35: error: state.matrix.program[8]: program matrix 8 is out of range (0..7) [ST2004]
PARAM m[] = { state.matrix.program[8] };
END
