!!ARBfp1.0
# expect: 3:8: error: OPTION ARB_position_invariant is a vertex program option [ST2104]
OPTION ARB_position_invariant;
END
