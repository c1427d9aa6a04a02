!!ARBfp1.0
# expect: 5:1: error: unexpected END, expecting ';' or ',' or '.' or '[' (at 'END') [ST1002]
# expect: 6:1: warning: text after END is ignored [ST5002]
MOV result.color, fragment.color
END
trailing ( text
