!!ARBfp1.0
# expect: 4:1: error: unexpected end of file: an ARB program ends with END [ST1002]
MOV result.color, fragment.color;
