!!ARBfp1.0
# expect: 3:7: error: 'texture' is a reserved word and cannot name a variable [ST1002]
PARAM texture = 1;
END
