!!ARBfp1.0
# expect: 3:11: error: 'a' is not declared [ST2102]
ALIAS b = a;
END
