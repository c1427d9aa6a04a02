!!ARBfp1.0
# expect: 3:4: error: unexpected ';' [ST1002]
KIL;
END
