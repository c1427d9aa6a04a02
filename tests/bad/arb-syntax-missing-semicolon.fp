!!ARBfp1.0
# expect: 4:1: error: unexpected END, expecting ';' or ',' or '.' or '[' (at 'END') [ST1002]
MOV result.color, fragment.color
END
