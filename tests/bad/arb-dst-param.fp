!!ARBfp1.0
# expect: 4:5: error: c cannot be written: the destination must be a TEMP or a result [ST2005]
PARAM c = 1;
MOV c, fragment.color;
END
