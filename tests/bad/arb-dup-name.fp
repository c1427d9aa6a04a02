!!ARBfp1.0
# expect: 4:7: error: 'c' is already declared (line 3) [ST2103]
TEMP a, b, c;
ALIAS c = a;
END
