!!ARBfp1.0
# expect: 3:6: error: 'MOV_SAT' is a reserved word and cannot name a variable [ST1002]
TEMP MOV_SAT;
END
