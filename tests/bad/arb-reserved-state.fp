!!ARBfp1.0
# expect: 3:7: error: 'state' is a reserved word and cannot name a variable [ST1002]
ALIAS state = foo;
END
