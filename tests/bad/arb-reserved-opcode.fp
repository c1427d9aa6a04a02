!!ARBfp1.0
# expect: 3:10: error: 'CMP' is a reserved word and cannot name a variable [ST1002]
TEMP R0, CMP;
END
