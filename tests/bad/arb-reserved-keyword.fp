!!ARBfp1.0
# expect: 3:6: error: 'END' is a reserved word and cannot name a variable [ST1002]
TEMP END;
MOV result.color, fragment.color;
END
