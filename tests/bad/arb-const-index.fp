!!ARBfp1.0
# expect: 3:22: error: a constant cannot be indexed [ST2019]
MOV result.color, {1}[0];
END
