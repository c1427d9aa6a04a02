!!ARBfp1.0
# expect: 3:8: error: OPTION NV_fragment_program is not supported: shadertrans implements the ARB options only [ST3001]
OPTION NV_fragment_program;
END
