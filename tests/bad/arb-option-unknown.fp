!!ARBfp1.0
# expect: 3:8: error: unknown program option fast_math [ST2104]
OPTION fast_math;
END
