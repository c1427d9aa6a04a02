!!ARBfp1.0
# expect: 3:1: error: EXP is not an ARB_fragment_program instruction [ST2001]
EXP result.color, fragment.color.x;
END
