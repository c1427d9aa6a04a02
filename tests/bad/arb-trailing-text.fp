!!ARBfp1.0
# expect: 5:8: error: only one of ARB_fog_exp, ARB_fog_exp2 and ARB_fog_linear may be given [ST2104]
# expect: 8:1: warning: text after END is ignored [ST5002]
OPTION ARB_fog_exp;
OPTION ARB_fog_exp2;
MOV result.color, fragment.color;
END
trailing words; MOV result.color, 1;
