!!ARBfp1.0
# expect: 3:19: error: result.depth cannot be read: results are write-only [ST2006]
MOV result.color, result.depth;
END
