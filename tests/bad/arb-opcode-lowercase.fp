!!ARBfp1.0
# expect: 3:1: error: unknown instruction 'mov' (ARB instruction names are upper case: MOV) [ST1006]
mov result.color, fragment.color;
END
