!!ARBfp1.0
# expect: 4:1: error: OPTION must come before every declaration and instruction [ST1002]
MOV result.color, fragment.color;
OPTION ARB_fog_exp;
END
