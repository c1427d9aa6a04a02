!!ARBfp1.0
# expect: 3:7: error: unexpected ';', expecting identifier [ST1002]
OPTION;
END
