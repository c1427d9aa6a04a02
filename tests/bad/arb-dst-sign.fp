!!ARBfp1.0
# expect: 3:5: error: a destination takes no sign [ST1002]
MOV -result.color, fragment.color;
END
