!!ARBfp1.0
# expect: 3:6: error: 'fragment' is a reserved word and cannot name a variable [ST1002]
TEMP fragment;
END
