!!ARBfp1.0
# expect: 3:18: error: unexpected ';' [ST1002]
MOV result.color,;
END
