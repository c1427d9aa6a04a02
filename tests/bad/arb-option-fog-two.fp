!!ARBfp1.0
# expect: 4:8: error: only one of ARB_fog_exp, ARB_fog_exp2 and ARB_fog_linear may be given [ST2104]
OPTION ARB_fog_exp2;
OPTION ARB_fog_linear;
MOV result.color, fragment.color;
END
