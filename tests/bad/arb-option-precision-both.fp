!!ARBfp1.0
# expect: 4:8: error: ARB_precision_hint_fastest and ARB_precision_hint_nicest exclude each other [ST2104]
OPTION ARB_precision_hint_nicest;
OPTION ARB_precision_hint_fastest;
MOV result.color, fragment.color;
END
