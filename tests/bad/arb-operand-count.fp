!!ARBfp1.0
# expect: 3:1: error: KIL takes 1 operand, not 2 [ST2002]
KIL fragment.color, fragment.color;
END
