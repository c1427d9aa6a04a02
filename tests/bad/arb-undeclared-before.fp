!!ARBfp1.0
# expect: 3:5: error: 'R0' is not declared [ST2102]
MOV R0, fragment.color;
TEMP R0;
MOV result.color, R0;
END
